import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { yogaAloneOf } from '../../src/gateway/composition/engine-serving.ts';
import type { RequestLogEntry } from '../../src/gateway/observability/request-log.ts';
import type { GuardList } from '../../src/gateway/request/guards.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import type { AddedGateway, Stack } from '../helpers/start-stack.ts';

/**
 * The delegated strategy of the front door (execution/delegate/delegated-run.ts): an operation Mesh
 * must delegate (the translation namespace, fields of both sources, links the fast path leaves
 * alone) is planned the first time its text is seen and executed by Mesh's own execution, in front
 * of yoga: each guard once, the response cache read once, and the answer yoga gives, byte for byte.
 */
const KEY = 'delegated-key';
const NAMESPACE = 'query Languages { translation { languages { code name targets } } }';
const BOTH = 'query Both($id: ID!, $text: String!) { problem(id: $id) { id title } translation { translate(text: $text, to: "es") { text language } } }';
const CONDITIONS = 'query Conditions($id: ID!, $on: Boolean!) { problem(id: $id) { id title @include(if: $on) rating @skip(if: $on) } translation { languages @include(if: $on) { code } } }';
// A client's key that is a field the link reads, and a field twice, the first left out: the
// delegation workarounds (delegated-execution.ts) must apply here as in yoga.
const SHADOWED = 'query Shadowed($id: ID!) { problem(id: $id) { title: slug id translation(to: "fr") { title } } translation { languages { code } } }';
const TWICE = 'query Twice($id: ID!, $on: Boolean!) { problem(id: $id) { title @include(if: $on) title } translation { languages { code } } }';

const headers = (extra: Record<string, string> = {}) => ({ 'content-type': 'application/json', authorization: `Bearer ${KEY}`, ...extra });

describe('delegated plans: Mesh’s own execution in front of yoga', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await sharedStack('open');
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** A gateway whose request log lines and app guards (params, operation) are counted. */
  const counted = async (settings: Record<string, unknown> = {}) => {
    const log: RequestLogEntry[] = [];
    const runs = { params: 0, operation: 0 };
    const guards: Partial<GuardList> = {
      params: [{ name: 'count params', check: () => void (runs.params += 1) }],
      operation: [{ name: 'count operations', check: () => void (runs.operation += 1) }],
    };
    const added = await stack.addGateway({ requestLog: (entry) => log.push(entry), guards, settings: { gatewayApiKeys: [KEY], problemsCacheTtlSeconds: 0, translationCacheTtlSeconds: 0, ...settings } });
    return { added, log, runs };
  };
  const post = (target: AddedGateway, body: Record<string, unknown>, extra?: Record<string, string>) => fetch(target.gatewayUrl, { method: 'POST', headers: headers(extra), body: JSON.stringify(body) });
  const viaYoga = (target: AddedGateway, body: Record<string, unknown>, extra?: Record<string, string>) =>
    yogaAloneOf(target.gateway).fetch(new Request(target.gatewayUrl, { method: 'POST', headers: headers(extra), body: JSON.stringify(body) })) as Promise<Response>;
  const seen = async (response: Response) =>
    `${response.status} ${['content-type', 'content-language', 'vary', 'cache-control'].map((name) => `${name}=${response.headers.get(name)}`).join(' ')} ${await response.text()}`;

  it('answers a delegated text the first time it is seen in front of yoga, each guard once', async () => {
    const { added, log, runs } = await counted();
    for (const [index, body] of [{ query: NAMESPACE }, { query: BOTH, variables: { id: 'p1001', text: 'hello' } }].entries()) {
      const response = await post(added, body);
      expect(response.status).toBe(200);
      expect(JSON.parse(await response.text())).not.toHaveProperty('errors');
      await expect.poll(() => log.length).toBe(index + 1);
      expect(log[index]).toMatchObject({ lane: 'delegated', outcome: 'ok', operationType: 'query' });
    }
    // yoga, had it executed them, would have run the operation guards again in its onExecute.
    expect(runs).toEqual({ params: 2, operation: 2 });
    expect(log.map(({ operation, upstreamCalls }) => [operation, upstreamCalls])).toEqual([
      ['Languages', { problems: 0, translation: 1 }],
      ['Both', { problems: 1, translation: 1 }],
    ]);
  });

  it('answers as yoga does, byte for byte: links, conditions, aliases, languages, faults, variables that do not coerce', async () => {
    const { added, log } = await counted();
    const cases: [Record<string, unknown>, Record<string, string>?][] = [
      [{ query: NAMESPACE }],
      [{ query: BOTH, variables: { id: 'p1001', text: 'good morning' } }],
      [{ query: BOTH, variables: { id: 'nope', text: 'good morning' } }],
      [{ query: CONDITIONS, variables: { id: 'p1001', on: true } }],
      [{ query: CONDITIONS, variables: { id: 'p1001', on: false } }],
      [{ query: SHADOWED, variables: { id: 'p1002' } }],
      [{ query: TWICE, variables: { id: 'p1002', on: false } }],
      // The reader's languages: Content-Language and Vary, from what the translation fields answered in.
      [{ query: 'query Negotiated { translation { translate(text: "thank you") { text language } } }' }, { 'accept-language': 'de, fr;q=0.5' }],
      // The translation service refuses a language: one field's error, the rest answered.
      [{ query: 'query Refused($id: ID!) { problem(id: $id) { id } translation { translate(text: "hi", to: "xx-unknown") { text } } }', variables: { id: 'p1001' } }],
      // Variables that do not coerce: graphql-js words the error (yoga's, then as now).
      [{ query: BOTH, variables: { id: 5, text: null } }],
      [{ query: CONDITIONS, variables: { id: 'p1001', on: 'yes' } }],
    ];
    const lanes: (string | undefined)[] = [];
    for (const [body, extra] of cases) {
      const before = log.length;
      const first = await seen(await post(added, body, extra));
      await expect.poll(() => log.length).toBe(before + 1);
      lanes.push(log.at(-1)?.lane);
      const again = await seen(await post(added, body, extra));
      const yoga = await seen(await viaYoga(added, body, extra));
      expect({ body, first, again }).toEqual({ body, first: yoga, again: yoga });
    }
    expect(lanes).toEqual([...Array(9).fill('delegated'), undefined, undefined]);
  });

  it('costs one field when the translation service is down, with the answer and the logged cause yoga gives (in production)', async () => {
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      const lines: string[] = [];
      const log: RequestLogEntry[] = [];
      const down = await stack.addGateway({
        requestLog: (entry) => log.push(entry),
        log: (line, level) => void (level === 'error' && lines.push(line.replace(/\d+\.\d+\.\d+\.\d+:\d+/, 'ADDRESS'))),
        settings: { gatewayApiKeys: [KEY], production: true, upstreamRetries: 0, translationUrl: 'http://127.0.0.1:9', problemsCacheTtlSeconds: 0 },
      });
      const body = { query: BOTH, variables: { id: 'p1001', text: 'hello' } };
      const answers: string[] = [];
      const causes: string[][] = [];
      for (const ask of [post, post, viaYoga]) {
        answers.push(await seen(await ask(down, body)));
        causes.push(lines.splice(0));
      }
      await expect.poll(() => log.length).toBe(3);
      expect(log.map((entry) => entry.lane)).toEqual(['delegated', 'delegated', undefined]);
      // Mesh's own execution logs each cause once, whichever door the request came through.
      expect(causes).toEqual([['mesh: connect ECONNREFUSED ADDRESS'], ['mesh: connect ECONNREFUSED ADDRESS'], ['mesh: connect ECONNREFUSED ADDRESS']]);
      expect(answers[1]).toBe(answers[0]);
      expect(answers[2]).toBe(answers[0]);
      const answer = JSON.parse(answers[0].slice(answers[0].indexOf('{'))) as { data: unknown; errors: unknown[] };
      expect(answer.data).toEqual({ problem: { id: 'p1001', title: expect.any(String) }, translation: { translate: null } });
      expect(answer.errors).toEqual([
        { message: 'The translation service could not be reached.', locations: [{ line: 1, column: 84 }], path: ['translation', 'translate'], extensions: { code: 'UPSTREAM_UNAVAILABLE', service: 'translation' } },
      ]);
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
  });

  it('leaves to yoga what it serves itself: introspection, @defer, and a document with several operations and no name', async () => {
    const { added, log } = await counted({ introspection: false });
    const bodies = [
      { query: '{ __schema { queryType { name } } }' },
      { query: 'query D($id: ID!) { problem(id: $id) { id ... @defer { title } } translation { languages { code } } }', variables: { id: 'p1001' } },
      { query: `${NAMESPACE} query Other { translation { languages { code } } }` },
    ];
    for (const body of bodies) {
      const before = log.length;
      const answered = await seen(await post(added, body, { accept: 'application/json' }));
      await expect.poll(() => log.length).toBe(before + 1);
      expect(log.at(-1)?.lane).toBeUndefined();
      expect(answered).toBe(await seen(await viaYoga(added, body, { accept: 'application/json' })));
    }
  });
});

describe('delegated plans with a shared response cache', () => {
  let stack: Stack;
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
    stack = await sharedStack('open');
  });
  afterAll(async () => {
    await stack?.close();
    await redis?.stop();
  });

  it('reads the response cache once per request, and keeps the delegated answer for the next', async () => {
    const log: RequestLogEntry[] = [];
    const added = await stack.addGateway({
      requestLog: (entry) => log.push(entry),
      settings: { redisUrl: redis.url, gatewayApiKeys: [KEY], responseCacheTtlSeconds: 60, problemsCacheTtlSeconds: 0, translationCacheTtlSeconds: 0 },
    });
    // Every command Redis runs; the response cache's reads are GETs of its entries' keys (the
    // namespace and a digest: the budget script's GETs of its byte counters are no reads of answers).
    const client = new Redis(redis.url);
    const monitor = await client.monitor();
    const reads: string[] = [];
    const echoes: string[] = [];
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (args[0]?.toLowerCase() === 'echo') echoes.push(args[1]);
      if (args[0]?.toLowerCase() === 'get' && /:responses:[\w-]{43}$/.test(args[1] ?? '')) reads.push(args[1]);
    });
    // Everything Redis ran before it, the monitor has heard once it hears this.
    const heardSoFar = async (mark: string) => {
      await client.echo(mark);
      await expect.poll(() => echoes.includes(mark)).toBe(true);
    };
    try {
      const body = JSON.stringify({ query: BOTH, variables: { id: 'p1003', text: 'see you' } });
      const first = await fetch(added.gatewayUrl, { method: 'POST', headers: headers(), body });
      const text = await first.text();
      await expect.poll(() => log.length).toBe(1);
      expect(log[0].lane).toBe('delegated');
      await heardSoFar('first');
      expect(reads).toHaveLength(1);
      const second = await fetch(added.gatewayUrl, { method: 'POST', headers: headers(), body });
      expect(await second.text()).toBe(text);
      await expect.poll(() => log.length).toBe(2);
      expect(log[1].lane).toBe('cache');
      // The hit is this process's own copy: no second read.
      await heardSoFar('second');
      expect(reads).toHaveLength(1);
    } finally {
      monitor.disconnect();
      client.disconnect();
    }
  });
});
