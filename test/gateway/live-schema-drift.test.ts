import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLiveProblemsSchema } from '../../src/gateway/schema/live-problems-schema.ts';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { sizeOf } from '../../src/gateway/schema/schema-size.ts';
import { createChangingProblemsService, SCHEMAS } from '../helpers/changing-problems-service.ts';
import { PROBLEMS_KEY } from '../helpers/start-stack.ts';
import { PROJECT_ROOT } from '../helpers/run-command.ts';

describe('drift checks', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await server?.close();
  });

  // Refusals every 100 ms for 16 s against a schema that does not change (or changed to one over the
  // bounds, refused unbuilt): at a fixed gap of 5 s that would be checks at 0, 5, 10 and 15 s;
  // doubling after each that changes nothing, at 0 and 10 s (the next would be at 30 s). The 16 s
  // pass on a fake clock (`performance` and the timers the checks are spaced with); each step waits
  // for the check it started, if any, to be answered, so however long one takes on the machine, it
  // ends at the moment it began.
  it.each([
    ['unchanged', undefined],
    ['changed to one over the bounds', SCHEMAS.fieldAdded],
  ] as const)('that find the schema %s space out the next ones, whatever clients send', async (_, next) => {
    const service = createChangingProblemsService({ apiKey: PROBLEMS_KEY });
    server = await listen(service.listener);
    const size = sizeOf(SCHEMAS.base);
    let asked = 0;
    let answered = 0;
    const live = createLiveProblemsSchema({
      introspection: {
        endpoint: `${server.url}/graphql`,
        apiKey: PROBLEMS_KEY,
        fetch: (input, init) => {
          asked += 1;
          return fetch(input, init);
        },
      },
      snapshotPath: join(PROJECT_ROOT, 'sources/problems/schema.graphql'),
      pollMs: 0,
      // The stand-in's schema exactly at the bounds: a field added is over them.
      bounds: { maxTypes: size.types, maxFields: size.fields, maxEnumValues: size.enumValues },
      onChange: () => Promise.reject(new Error('no schema is built here')),
      onAnswer: () => (answered += 1),
      log: () => undefined,
    });
    await live.start();
    if (next) service.setSchema(next);
    vi.useFakeTimers({ toFake: ['performance', 'setTimeout', 'clearTimeout'] });
    const atStart = { asked, introspections: service.introspections() };
    const checksAt: number[] = [];
    for (let sent = 0; sent < 160; sent += 1) {
      live.driftSeen();
      await vi.advanceTimersByTimeAsync(sent === 0 ? 0 : 100);
      if (asked > atStart.asked + checksAt.length) checksAt.push(performance.now());
      // Turns of the event loop, not time: the fake clock stays where the check began.
      while (answered < asked) await new Promise((resolve) => setImmediate(resolve));
    }
    live.stop();
    expect(checksAt).toEqual([0, 10_000].map((at) => at + checksAt[0]));
    expect(checksAt[0]).toBeLessThan(100);
    expect(service.introspections() - atStart.introspections).toBe(2);
    if (next) expect(live.status().refused).toMatch(/not built: \d+ fields and arguments, over PROBLEMS_SCHEMA_MAX_FIELDS=/);
  });
});
