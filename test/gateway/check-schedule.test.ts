import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCheckSchedule } from '../../src/gateway/schema/check-schedule.ts';
import { createSchemaRecord } from '../../src/gateway/schema/schema-record.ts';
import type { IntrospectedSchema } from '../../src/gateway/schema/introspection.ts';

describe('the check schedule', () => {
  afterEach(() => void vi.useRealTimers());

  /** A schedule whose checks are held until `finish(changed)`, on a clock the test moves. */
  function schedule(pollMs = 0) {
    const clock = { now: 1000 };
    const pending: ((changed: boolean) => void)[] = [];
    let runs = 0;
    let checkable = true;
    const made = createCheckSchedule({
      pollMs,
      runCheck: () => {
        runs += 1;
        return new Promise<boolean>((resolve) => pending.push(resolve));
      },
      checkable: () => checkable,
      now: () => clock.now,
    });
    return { made, clock, runs: () => runs, finish: (changed: boolean) => pending.shift()!(changed), setCheckable: (value: boolean) => (checkable = value) };
  }

  it('runs one check at a time: asked again while one is under way, it joins that one', async () => {
    const s = schedule();
    const first = s.made.check();
    const second = s.made.check();
    expect(s.runs()).toBe(1);
    s.finish(true);
    expect(await Promise.all([first, second])).toEqual([true, true]);
    const third = s.made.check();
    expect(s.runs()).toBe(2);
    s.finish(false);
    expect(await third).toBe(false);
  });

  it('checks nothing while there is nothing to check', async () => {
    const s = schedule();
    s.setCheckable(false);
    expect(await s.made.check()).toBe(false);
    expect(s.runs()).toBe(0);
  });

  it('a drift seen while a check runs asks nothing; one seen soon after waits for the gap after the last check began', async () => {
    vi.useFakeTimers();
    const s = schedule();
    const running = s.made.check();
    s.made.driftSeen();
    expect(s.runs()).toBe(1);
    s.finish(false);
    await running;
    // One second after the check began: the gap (5 s) is not over, so the check waits for it.
    s.clock.now += 1000;
    s.made.driftSeen();
    expect(s.runs()).toBe(1);
    await vi.advanceTimersByTimeAsync(3999);
    expect(s.runs()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.runs()).toBe(2);
    s.made.stop();
  });
});

describe('the schema record', () => {
  const schema = (hash: string) => ({ hash }) as IntrospectedSchema;

  it('each outcome of a check sets what it changes together: a refusal, then an unchanged schema, then a build failure, then a swap', () => {
    const record = createSchemaRecord('live');
    record.serve(schema('a'), 'live');
    record.refuse('b', 'b not built: too large');
    expect([record.unbuildable, record.status().refused]).toEqual(['b', 'b not built: too large']);
    record.unchanged();
    expect([record.unbuildable, record.status().refused]).toEqual(['b', undefined]);
    record.couldNotBuild('c');
    expect([record.unbuildable, record.status().refused]).toEqual(['c', undefined]);
    record.refuse('d', 'd not built');
    record.swapped(schema('d'));
    expect([record.served?.hash, record.source, record.unbuildable, record.status().refused]).toEqual(['d', 'live', undefined, undefined]);
  });

  it('a check that finds the snapshot served unchanged at the service serves it as the service\'s', () => {
    const record = createSchemaRecord('live');
    record.fellBack(schema('a'), 'unreachable', 'unreachable');
    expect(record.source).toBe('snapshot');
    record.unchanged();
    expect(record.source).toBe('live');
  });
});
