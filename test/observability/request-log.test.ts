import { spawnSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEntryLog } from '../../src/cli/entry-log.ts';
import { createObservability, type RequestLogEntry } from '../../src/gateway/observability/index.ts';
import type { FinishedRequest, ObservedRequest } from '../../src/gateway/request/observed-request.ts';
import { readSettings } from '../../src/gateway/settings.ts';
import { flushRequestLog, isoTimeNow, requestLogLine, requestLogObserver, writeRequestLogLine } from '../../src/gateway/observability/request-log.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import { PROBLEMS_KEY, TRANSLATION_KEY, postGraphQL, type Stack } from '../helpers/start-stack.ts';
import { CROSS_SOURCE, baseOf, recordUpstreamRequests } from './helpers.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request log and request ids', () => {
  let stack: Stack;
  let logged: RequestLogEntry[];
  let gatewayUrl: string;

  beforeAll(async () => {
    stack = await sharedStack('open');
    logged = [];
    // Caches off, so every request reaches both upstreams.
    ({ gatewayUrl } = await stack.addGateway({
      requestLog: (entry) => logged.push(entry),
      settings: { translationCacheTtlSeconds: 0, problemsCacheTtlSeconds: 0 },
    }));
  });
  afterAll(async () => {
    await stack?.close();
  });
  afterEach(() => {
    logged.length = 0;
  });

  it('writes exactly one line per GraphQL request, with its id, operation, duration, upstream calls, outcome and status', async () => {
    const response = await fetch(gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'client-id.42_A' },
      body: JSON.stringify({ query: CROSS_SOURCE }),
    });
    expect(response.status).toBe(200);
    expect(logged).toHaveLength(1);
    const [entry] = logged;
    expect(entry).toEqual({
      level: 'info',
      msg: 'request',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      requestId: 'client-id.42_A',
      operation: 'ProblemsInSpanish',
      operationType: 'query',
      durationMs: expect.any(Number),
      // Translation: the language list (a new gateway's first call, to map `to`) and the translation.
      upstreamCalls: { problems: 1, translation: 2 },
      outcome: 'ok',
      status: 200,
      errors: 0,
      // Who asked and which process answered, so lines of several workers can be told apart.
      method: 'POST',
      path: '/graphql',
      userAgent: expect.any(String),
      pid: process.pid,
      // Answered in front of yoga (a query the problems service answers whole, its link completed by the gateway).
      lane: 'direct',
    });
  });

  it('counts only the upstreams a request needed, and names an unnamed operation "anonymous"', async () => {
    await postGraphQL(gatewayUrl, '{ problems(first: 1) { totalCount } }');
    await postGraphQL(gatewayUrl, '{ __typename }');
    expect(logged.map(({ operation, upstreamCalls }) => ({ operation, upstreamCalls }))).toEqual([
      { operation: 'anonymous', upstreamCalls: { problems: 1, translation: 0 } },
      { operation: 'anonymous', upstreamCalls: { problems: 0, translation: 0 } },
    ]);
  });

  it('never logs a header, a variable or a key', async () => {
    const secret = 'sk-live-9f8e7d6c5b4a';
    await postGraphQL(
      gatewayUrl,
      'query WithSecrets($token: String!, $to: String!) { translation { translate(text: $token, to: $to) { text } } }',
      { token: `${secret}-variable`, to: 'es' },
      { authorization: `Bearer ${secret}-header`, cookie: `session=${secret}-cookie` },
    );
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ operation: 'WithSecrets', upstreamCalls: { problems: 0, translation: 1 } });
    // The client's own address aside, nothing says where the upstreams live.
    const line = JSON.stringify(logged.map(({ clientAddress: _client, ...rest }) => rest));
    for (const forbidden of [secret, PROBLEMS_KEY, TRANSLATION_KEY, 'authorization', 'cookie', 'token', '127.0.0.1']) expect(line).not.toContain(forbidden);
  });

  it('logs errors and refusals with their outcome and status, and nothing for other endpoints', async () => {
    const guarded = await stack.addGateway({ requestLog: (entry) => logged.push(entry), settings: { gatewayApiKeys: ['client-key'] } });
    expect((await guarded.query('query Refused { __typename }')).status).toBe(401);
    expect((await guarded.query('query Broken { nope }', undefined, { authorization: 'Bearer client-key' })).status).toBe(400);
    stack.translation.setFaults({ status: 500, routes: ['POST /translate'] });
    try {
      await postGraphQL(gatewayUrl, CROSS_SOURCE);
    } finally {
      stack.translation.clearFaults();
    }
    for (const path of ['/healthcheck', '/readiness', '/metrics']) await fetch(`${baseOf(gatewayUrl)}${path}`);
    await fetch(gatewayUrl, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
    expect(logged.map(({ level, operation, outcome, status }) => ({ level, operation, outcome, status }))).toEqual([
      { level: 'info', operation: 'anonymous', outcome: 'rejected', status: 401 },
      { level: 'info', operation: 'Broken', outcome: 'rejected', status: 400 },
      { level: 'warn', operation: 'ProblemsInSpanish', outcome: 'error', status: 200 },
    ]);
  });

  it('writes one line for a batched request', async () => {
    const response = await fetch(gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ query: 'query A { __typename }' }, { query: 'query B { __typename }' }]),
    });
    expect(response.status).toBe(200);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ operation: 'batch', outcome: 'ok' });
  });

  it('writes JSON lines to stdout by default', async () => {
    const { gatewayUrl: defaultUrl } = await stack.addGateway({ requestLog: undefined });
    const written: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: unknown) => written.push(String(chunk)) > 0) as typeof process.stdout.write;
    try {
      await postGraphQL(defaultUrl, 'query Plain { __typename }');
      // Lines wait up to 20 ms to be written together; what waits is written now.
      flushRequestLog();
    } finally {
      process.stdout.write = write;
    }
    const lines = written.filter((chunk) => chunk.includes('"msg":"request"'));
    expect(lines).toHaveLength(1);
    expect(lines[0].endsWith('\n')).toBe(true);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 'info', msg: 'request', operation: 'Plain', outcome: 'ok', status: 200 });
  });

  describe('x-request-id', () => {
    const send = (headers: Record<string, string> = {}) =>
      fetch(gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query: CROSS_SOURCE }) });

    it('MUST take a sane id from the client, return it, and send it to both upstreams on every call', async () => {
      const upstream = recordUpstreamRequests(stack);
      try {
        const response = await send({ 'x-request-id': 'trace-me-123' });
        expect(response.headers.get('x-request-id')).toBe('trace-me-123');
      } finally {
        upstream.stop();
      }
      for (const service of ['problems', 'translation'] as const) {
        expect(upstream.seen[service].length).toBeGreaterThanOrEqual(1);
        for (const { headers } of upstream.seen[service]) expect(headers['x-request-id']).toBe('trace-me-123');
      }
      expect(logged[0].requestId).toBe('trace-me-123');
    });

    it.each([
      ['none', undefined],
      ['one with spaces', 'not a token'],
      ['one of 129 characters', 'a'.repeat(129)],
      ['one with a newline-like escape', 'abc%0d%0aset-cookie'],
    ])('MUST generate a UUID when the client sends %s', async (_, id) => {
      const upstream = recordUpstreamRequests(stack);
      let returned: string | null;
      try {
        returned = (await send(id === undefined ? {} : { 'x-request-id': id })).headers.get('x-request-id');
      } finally {
        upstream.stop();
      }
      expect(returned).toMatch(UUID);
      expect(logged[0].requestId).toBe(returned);
      for (const service of ['problems', 'translation'] as const) {
        expect(upstream.seen[service].map(({ headers }) => headers['x-request-id'])).toEqual(upstream.seen[service].map(() => returned));
      }
    });

    it('keeps an id of exactly 128 token characters', async () => {
      const id = 'A-b_c.9'.repeat(18).slice(0, 128);
      expect((await send({ 'x-request-id': id })).headers.get('x-request-id')).toBe(id);
    });

    it('sends the same id with every retry of a call', async () => {
      const retrying = await stack.addGateway({ settings: { translationCacheTtlSeconds: 0, problemsCacheTtlSeconds: 0, upstreamRetries: 2 } });
      stack.translation.setFaults({ status: 503, retryAfter: 0, failFirst: 2, routes: ['POST /translate'] });
      const upstream = recordUpstreamRequests(stack);
      try {
        const response = await fetch(retrying.gatewayUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-request-id': 'retried-1' },
          body: JSON.stringify({ query: CROSS_SOURCE }),
        });
        expect((await response.json()).errors).toBeUndefined();
      } finally {
        upstream.stop();
        stack.translation.clearFaults();
      }
      const translateCalls = upstream.seen.translation.filter(({ path }) => path === '/translate');
      expect(translateCalls).toHaveLength(3);
      for (const { headers } of translateCalls) expect(headers['x-request-id']).toBe('retried-1');
    });
  });
});

describe('the request log line', () => {
  const base: RequestLogEntry = {
    level: 'info',
    msg: 'request',
    time: '2026-11-24T08:00:00.000Z',
    requestId: '2b7c0c1e-4d0c-4a57-9d1b-6f2f0f1c2a3b',
    operation: 'anonymous',
    durationMs: 1.2,
    upstreamCalls: { problems: 1, translation: 0 },
    outcome: 'ok',
    status: 200,
    errors: 0,
  };

  // An entry's keys in the order the log writes them (the observer's order), as JSON.stringify would.
  const ORDER = ['level', 'msg', 'time', 'requestId', 'operation', 'operationType', 'durationMs', 'upstreamCalls', 'outcome', 'status', 'errors', 'trace_id', 'lane'];
  const inOrder = (entry: RequestLogEntry): RequestLogEntry =>
    Object.fromEntries(ORDER.filter((key) => key in entry).map((key) => [key, entry[key as keyof RequestLogEntry]])) as unknown as RequestLogEntry;

  it('is exactly JSON.stringify of the entry and a newline, with or without each optional field', () => {
    const entries = ([
      base,
      { ...base, operationType: 'query' },
      { ...base, operationType: 'mutation', trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', lane: 'direct' },
      { ...base, level: 'warn', outcome: 'error', status: 502, errors: 3, durationMs: 12345.6, lane: 'cache' },
      { ...base, durationMs: 0, upstreamCalls: { problems: 0, translation: 17 } },
    ] satisfies RequestLogEntry[]).map(inOrder);
    for (const entry of entries) expect(requestLogLine(entry)).toBe(`${JSON.stringify(entry)}\n`);
  });

  it("writes the time as Date's toISOString, to the millisecond, across seconds, days and years", () => {
    const times = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, Date.UTC(2026, 11, 31, 23, 59, 59, 999), Date.UTC(2027, 0, 1), Date.UTC(2028, 1, 29, 12, 0, 0, 5)];
    // Within one second and from one second to the next, in order and out of it.
    for (let at = Date.UTC(2026, 10, 28, 8, 0, 0, 990); at < Date.UTC(2026, 10, 28, 8, 0, 1, 20); at += 1) times.push(at, at - 7_000);
    for (const at of times) expect(isoTimeNow(at)).toBe(new Date(at).toISOString());
  });

  it('escapes what JSON must escape in every text, and writes a number JSON cannot hold as null', () => {
    const odd = { ...base, requestId: 'quote" backslash\\ newline\n tab\t \u0001 \u2028 é 😀', operation: '</script>', durationMs: Number.NaN, status: Number.POSITIVE_INFINITY };
    const line = requestLogLine(odd);
    expect(line).toBe(`${JSON.stringify(odd)}\n`);
    expect(JSON.parse(line)).toMatchObject({ requestId: odd.requestId, operation: '</script>', durationMs: null, status: null });
    expect(line.indexOf('\n')).toBe(line.length - 1);
  });

  it('is one line per entry in the order written, each parsed back to its entry', () => {
    const observer = requestLogObserver((entry) => lines.push(requestLogLine(entry)));
    const lines: string[] = [];
    const finished = { id: 'a', operation: 'Named', operationType: 'query', outcome: 'ok' as const, status: 200, durationMs: 3.5, upstreamCalls: { problems: 1, translation: 2 }, errors: 0 };
    observer.requestFinished!(finished, { id: 'a', graphql: true, startedAt: 0, operations: new Map(), upstreamCalls: { problems: 1, translation: 2 } });
    observer.requestFinished!({ ...finished, id: 'b', operationType: undefined, outcome: 'error', lane: 'direct' }, { id: 'b', graphql: true, startedAt: 0, operations: new Map(), upstreamCalls: { problems: 1, translation: 2 }, traceId: 'trace' });
    const parsed = lines.map((line) => JSON.parse(line));
    expect(parsed).toEqual([
      { level: 'info', msg: 'request', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/), requestId: 'a', operation: 'Named', operationType: 'query', durationMs: 3.5, upstreamCalls: { problems: 1, translation: 2 }, outcome: 'ok', status: 200, errors: 0, pid: process.pid },
      { level: 'warn', msg: 'request', time: expect.any(String), requestId: 'b', operation: 'Named', durationMs: 3.5, upstreamCalls: { problems: 1, translation: 2 }, outcome: 'error', status: 200, errors: 0, trace_id: 'trace', lane: 'direct', pid: process.pid },
    ]);
    // The keys in the order they always had, the new ones after them.
    expect(Object.keys(parsed[1])).toEqual(['level', 'msg', 'time', 'requestId', 'operation', 'durationMs', 'upstreamCalls', 'outcome', 'status', 'errors', 'trace_id', 'lane', 'pid']);
  });

  it('writes every field as JSON.stringify would, the client and error fields included', () => {
    const entry: RequestLogEntry = {
      level: 'warn',
      msg: 'request',
      time: '2026-11-24T08:00:00.000Z',
      requestId: 'c',
      operation: 'Named',
      operationType: 'query',
      durationMs: 12.5,
      upstreamCalls: { problems: 1, translation: 1 },
      outcome: 'error',
      status: 200,
      errors: 2,
      trace_id: 'trace',
      lane: 'direct',
      method: 'POST',
      path: '/graphql',
      clientAddress: '::ffff:10.0.0.8',
      forwardedFor: '203.0.113.7, 10.0.0.2',
      userAgent: 'Mozilla/5.0 "quoted" \\ agent',
      pid: 4242,
      errorCodes: ['UPSTREAM_AUTH_REFUSED', 'UPSTREAM_TIMEOUT'],
      upstreamErrors: [
        { service: 'translation', code: 'UPSTREAM_AUTH_REFUSED', status: 403, cause: 'Invalid API key' },
        { service: 'problems', code: 'UPSTREAM_TIMEOUT', cause: 'timeout' },
      ],
    };
    expect(requestLogLine(entry)).toBe(`${JSON.stringify(entry)}\n`);
  });
});

describe('the default request log on stdout', () => {
  const entry = (requestId: string): RequestLogEntry => ({
    level: 'info',
    msg: 'request',
    time: '2026-11-24T08:00:00.000Z',
    requestId,
    operation: 'anonymous',
    durationMs: 1,
    upstreamCalls: { problems: 0, translation: 0 },
    outcome: 'ok',
    status: 200,
    errors: 0,
  });
  let written: string[];
  let restore: () => void;

  beforeEach(() => {
    vi.useFakeTimers();
    written = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    restore = () => spy.mockRestore();
  });
  afterEach(() => {
    flushRequestLog();
    restore();
    vi.useRealTimers();
  });

  it('writes the lines of 20 ms in one write, in the order they came', () => {
    writeRequestLogLine(entry('one'));
    writeRequestLogLine(entry('two'));
    expect(written).toEqual([]);
    vi.advanceTimersByTime(19);
    expect(written).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(written).toEqual([`${JSON.stringify(entry('one'))}\n${JSON.stringify(entry('two'))}\n`]);
    writeRequestLogLine(entry('three'));
    vi.advanceTimersByTime(20);
    expect(written).toHaveLength(2);
    expect(JSON.parse(written[1]).requestId).toBe('three');
  });

  it("writes what waits when the gateway's observability closes, in one write, in order, before any timer", async () => {
    const observability = createObservability({ settings: readSettings({}) });
    const observed = (id: string) => ({ id, upstreamCalls: { problems: 0, translation: 0 } }) as unknown as ObservedRequest;
    for (const id of ['one', 'two', 'three']) {
      const finished = { id, operation: id, durationMs: 1, upstreamCalls: { problems: 0, translation: 0 }, outcome: 'ok', status: 200, errors: 0 } as FinishedRequest;
      for (const observer of observability.observers) observer.requestFinished?.(finished, observed(id));
    }
    expect(written).toEqual([]);
    await observability.close();
    expect(written).toHaveLength(1);
    expect(written[0].trimEnd().split('\n').map((line) => JSON.parse(line).requestId)).toEqual(['one', 'two', 'three']);
  });

  it('writes at once when 64 KiB are waiting', () => {
    const long = entry('x'.repeat(1000));
    const lineLength = requestLogLine(long).length;
    const lines = Math.ceil((64 * 1024) / lineLength);
    for (let count = 0; count < lines - 1; count += 1) writeRequestLogLine(long);
    expect(written).toEqual([]);
    writeRequestLogLine(long);
    expect(written).toHaveLength(1);
    expect(written[0].split('\n')).toHaveLength(lines + 1);
  });

  it('writes what waits before the entry log writes its own line', () => {
    const entryLog = createEntryLog({ json: true });
    writeRequestLogLine(entry('before'));
    entryLog('stopping');
    expect(written.map((chunk) => JSON.parse(chunk))).toMatchObject([{ requestId: 'before' }, { msg: 'stopping' }]);
    // In text (outside production) too.
    written.length = 0;
    const consoleLog = vi.spyOn(console, 'log').mockImplementation((text: string) => void written.push(`${text}\n`));
    try {
      writeRequestLogLine(entry('before text'));
      createEntryLog({ json: false })('stopping');
    } finally {
      consoleLog.mockRestore();
    }
    expect(written).toHaveLength(2);
    expect(JSON.parse(written[0]).requestId).toBe('before text');
    expect(written[1]).toBe('[gateway] stopping\n');
  });
});

describe('the default request log in a process that fails', () => {
  it('writes every line still waiting when the process dies of an uncaught error, in order', () => {
    const script = `
      import { writeRequestLogLine } from ${JSON.stringify(new URL('../../src/gateway/observability/request-log.ts', import.meta.url).pathname)};
      for (const id of ['one', 'two', 'three']) writeRequestLogLine({ level: 'info', msg: 'request', time: 't', requestId: id, operation: id, durationMs: 1, upstreamCalls: { problems: 0, translation: 0 }, outcome: 'ok', status: 200, errors: 0 });
      throw new Error('fatal');
    `;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('fatal');
    expect(run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line).requestId)).toEqual(['one', 'two', 'three']);
  });
});
