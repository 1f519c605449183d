import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLiveProblemsSchema } from '../../src/gateway/schema/live-problems-schema.ts';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { sizeOf } from '../../src/gateway/schema/schema-size.ts';
import { createChangingProblemsService, SCHEMAS } from '../helpers/changing-problems-service.ts';
import { PROBLEMS_KEY } from '../helpers/start-stack.ts';
import { PROJECT_ROOT } from '../helpers/run-command.ts';

describe('drift checks', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  // Refusals every 100 ms for 16 s against a schema that does not change (or changed to one over the
  // bounds, refused unbuilt): at a fixed gap of 5 s that would be checks at 0, 5, 10 and 15 s;
  // doubling after each that changes nothing, at 0 and 10 s (the next would be at 30 s). A slow
  // machine only makes timers late, so fewer checks, never more.
  it.each([
    ['unchanged', undefined],
    ['changed to one over the bounds', SCHEMAS.fieldAdded],
  ] as const)('that find the schema %s space out the next ones, whatever clients send', async (_, next) => {
    const service = createChangingProblemsService({ apiKey: PROBLEMS_KEY });
    server = await listen(service.listener);
    const size = sizeOf(SCHEMAS.base);
    const live = createLiveProblemsSchema({
      introspection: { endpoint: `${server.url}/graphql`, apiKey: PROBLEMS_KEY },
      snapshotPath: join(PROJECT_ROOT, 'sources/problems/schema.graphql'),
      pollMs: 0,
      // The stand-in's schema exactly at the bounds: a field added is over them.
      bounds: { maxTypes: size.types, maxFields: size.fields, maxEnumValues: size.enumValues },
      onChange: () => Promise.reject(new Error('no schema is built here')),
      log: () => undefined,
    });
    await live.start();
    if (next) service.setSchema(next);
    const atStart = service.introspections();
    for (let sent = 0; sent < 160; sent += 1) {
      live.driftSeen();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    live.stop();
    const checks = service.introspections() - atStart;
    expect(checks).toBeGreaterThanOrEqual(1);
    expect(checks).toBeLessThanOrEqual(2);
    if (next) expect(live.status().refused).toMatch(/not built: \d+ fields and arguments, over PROBLEMS_SCHEMA_MAX_FIELDS=/);
  }, 60_000);
});
