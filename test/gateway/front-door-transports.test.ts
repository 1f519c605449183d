import { createHash } from 'node:crypto';
import { GraphQLError } from 'graphql';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardList } from '../../src/gateway/request/guards.ts';
import type { RequestLogEntry } from '../../src/gateway/observability/request-log.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import { withTranslationDown, withoutAddress } from '../helpers/translation-down.ts';
import type { AddedGateway, Stack } from '../helpers/start-stack.ts';

const KEY = 'door-key';
const ORIGIN = 'https://app.example';
/** Keys read only to mark a point in the monitor's stream (monitoredUpTo). */
const MARKER = 'door-test-marker:';
const FORWARDED = 'query Few($first: Int) { problems(first: $first) { nodes { id title } } }';
/** A response key in the links' alias space: the planner leaves it to Mesh's delegation (forwardable-operation.ts). */
const DELEGATED = '{ problems(first: 2) { nodes { _gatewayLink_title: id title } } }';

/** Headers that differ between any two answers whatever served them. */
const PER_ANSWER = new Set(['date', 'x-request-id', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * The front door is one path with two transports: a request on the node:http listener and the same
 * request given to `gateway.fetch` get the same status, headers and bytes, whatever answers them
 * (the cache, the straight path, yoga behind the door, a guard's refusal); and a request runs each
 * guard once and reads the response cache once, its document's first time included.
 */
describe('the front door through node:http and through fetch', () => {
  let stack: Stack;
  let redis: RedisServer;
  let monitor: Redis;
  let target: AddedGateway;
  /** Guard runs by phase and request id. */
  const runs = new Map<string, string[]>();
  /** The response cache's reads from Redis, by command. */
  const cacheReads: string[] = [];
  /** Markers read through `client` that the monitor has seen (monitoredUpTo). */
  const markersSeen = new Set<string>();
  let client: Redis;
  /**
   * Resolves once the monitor has seen every command Redis ran before now: MONITOR reports commands
   * in the order they ran, but later than the answers that made them, so a marker read now and then
   * seen there says none is still on its way.
   */
  const monitoredUpTo = async (name: string) => {
    const marker = `${MARKER}${name}`;
    await client.get(marker);
    await expect.poll(() => markersSeen.has(marker)).toBe(true);
  };
  const logged: RequestLogEntry[] = [];
  const count = (phase: string) => (request: { head: { headers: { get(name: string): string | null } } }) => {
    const id = request.head.headers.get('x-request-id') ?? 'none';
    runs.set(id, [...(runs.get(id) ?? []), phase]);
    return undefined;
  };
  /** A guard of `phase` that refuses a request carrying `x-refuse: <phase>`. */
  const refuseOn = (phase: string) => (request: { head: { headers: { get(name: string): string | null } } }) =>
    request.head.headers.get('x-refuse') === phase ? new GraphQLError(`Refused (${phase}).`, { extensions: { code: 'REFUSED' } }) : undefined;
  const guards: Partial<GuardList> = {
    head: [{ name: 'count head', check: count('head') }],
    params: [
      { name: 'count params', check: count('params') },
      { name: 'refuse params', check: refuseOn('params') },
    ],
    batch: [
      { name: 'count batch', check: async (request) => count('batch')(request) },
      { name: 'refuse batch', check: async (request) => refuseOn('batch')(request) },
    ],
    operation: [{ name: 'count operation', check: count('operation') }],
  };
  /** The persisted-query store's reads from Redis. */
  const persistedReads: string[] = [];
  /** Its writes (a document registered). */
  const persistedWrites: string[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    monitor = new Redis(redis.url);
    client = new Redis(redis.url);
    const watching = await monitor.monitor();
    watching.on('monitor', (_time: string, args: string[]) => {
      // An answer's key (not the write budget's bookkeeping under `bounded:`).
      if (/^get$/i.test(args[0]) && /:responses:(?!bounded:)/.test(args[1] ?? '')) cacheReads.push(args[1]);
      if (/^get$/i.test(args[0]) && args[1]?.startsWith(MARKER)) markersSeen.add(args[1]);
      if (/^get$/i.test(args[0]) && /:persisted-queries:(?!bounded:)/.test(args[1] ?? '')) persistedReads.push(args[1]);
      if (/^(set|eval|evalsha)$/i.test(args[0]) && args.some((arg) => /:persisted-queries:/.test(arg))) persistedWrites.push(args[0]);
    });
    stack = await sharedStack('open');
    target = await stack.addGateway({
      guards,
      requestLog: (entry) => logged.push(entry),
      settings: { gatewayApiKeys: [KEY], corsOrigins: [ORIGIN], responseCacheTtlSeconds: 60, redisUrl: redis.url },
    });
  });
  afterAll(async () => {
    monitor?.disconnect();
    client?.disconnect();
    await stack?.close();
    await redis?.stop();
  });

  const post = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const REQUESTS: [string, string, RequestInit][] = [
    ['a forwarded query', '', post({ query: FORWARDED, variables: { first: 2 } })],
    ['the same query, asking for the spec’s media type', '', post({ query: FORWARDED, variables: { first: 2 } }, { accept: 'application/graphql-response+json' })],
    ['a delegated query', '', post({ query: DELEGATED })],
    ['a query from a browser', '', post({ query: FORWARDED, variables: { first: 3 } }, { origin: ORIGIN })],
    ['a validator that matches nothing', '', post({ query: FORWARDED, variables: { first: 2 } }, { 'if-none-match': '"other"' })],
    ['variables that do not coerce', '', post({ query: FORWARDED, variables: { first: 'two' } })],
    ['a document that does not validate', '', post({ query: '{ nope }' })],
    ['a body that is no JSON', '', post('{ nope')],
    ['a batch', '', post([{ query: FORWARDED, variables: { first: 1 } }, { query: DELEGATED }])],
    ['a batch with a document that does not validate', '', post([{ query: FORWARDED, variables: { first: 1 } }, { query: '{ nope }' }])],
    ['a persisted-query hash', '', post({ extensions: { persistedQuery: { version: 1, sha256Hash: sha256(FORWARDED) } }, variables: { first: 2 } })],
    ['an unknown persisted-query hash', '', post({ extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ unknown }') } } })],
    ['a stream asked for', '', post({ query: FORWARDED, variables: { first: 2 } }, { accept: 'text/event-stream' })],
    ['a GET', `?query=${encodeURIComponent(FORWARDED)}&variables=${encodeURIComponent('{"first":4}')}`, { headers: { authorization: `Bearer ${KEY}` } }],
    ['no key', '', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: FORWARDED }) }],
    ['a preflight', '', { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } }],
  ];

  it.each(REQUESTS)('answers %s the same both ways', async (_name, search, init) => {
    const url = target.gatewayUrl + search;
    // Twice first, so that both ways below meet the same state (a cached answer, a plan).
    for (let index = 0; index < 2; index += 1) await (await fetch(url, init)).arrayBuffer();
    const seen = async (response: Response) => ({
      status: response.status,
      headers: [...response.headers]
        .map(([name, value]) => [name.toLowerCase(), value])
        .filter(([name]) => !PER_ANSWER.has(name))
        .sort(([a], [b]) => a.localeCompare(b))
        // The seconds left may tick over between the two.
        .map(([name, value]) => [name, name === 'cache-control' ? value.replace(/max-age=\d+/, 'max-age=N') : value]),
      body: await response.text(),
    });
    const viaListener = await seen(await fetch(url, init));
    const viaFetch = await seen(await target.gateway.fetch(new Request(url, init)));
    expect(viaFetch).toEqual(viaListener);
  });

  it.each([
    ['a persisted-query hash', `?extensions=${encodeURIComponent(JSON.stringify({ persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } }))}`],
    ['a trusted document id', '?documentId=abc'],
  ])('asks for the key of a GET that names its document by %s (no text), as of any operation', async (_name, search) => {
    const response = await fetch(target.gatewayUrl + search);
    expect(response.status).toBe(401);
  });

  it.each([
    ['the listener', (id: string, init: RequestInit) => fetch(target.gatewayUrl, withId(init, id))],
    ['gateway.fetch', (id: string, init: RequestInit) => target.gateway.fetch(new Request(target.gatewayUrl, withId(init, id)))],
  ])('runs each guard once and reads the cache once for a document seen the first time (%s)', async (way, send) => {
    const id = `first-seen-${way.replace(/\W/g, '')}`;
    // A text of its own for each way: its first time.
    const query = `${DELEGATED} # ${id}`;
    await monitoredUpTo(`${id}-before`);
    const readsBefore = cacheReads.length;
    const response = await send(id, post({ query }));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ data: { problems: { nodes: [{ _gatewayLink_title: expect.any(String) }, { _gatewayLink_title: expect.any(String) }] } } });
    expect(runs.get(id)).toEqual(['head', 'params', 'operation']);
    await expect.poll(() => logged.some((entry) => entry.requestId === id)).toBe(true);
    await monitoredUpTo(id);
    expect(cacheReads.slice(readsBefore)).toHaveLength(1);
    // Planned the first time it is seen and delegated by Mesh's own execution on the straight path.
    expect(logged.find((entry) => entry.requestId === id)?.lane).toBe('delegated');
  });

  it.each([
    ['a batch guard', 'batch'],
    ['a params guard', 'params'],
  ])('runs the guards of a batch before resolving any of its persisted documents: refused by %s, no document is read', async (_name, phase) => {
    const id = `guards-first-${phase}`;
    const hashes = ['{ one }', '{ two }'].map((text) => ({ extensions: { persistedQuery: { version: 1, sha256Hash: sha256(`${text} # ${id}`) } } }));
    await monitoredUpTo(`${id}-before`);
    const readsBefore = persistedReads.length;
    const response = await fetch(target.gatewayUrl, withId(post(hashes, { 'x-refuse': phase }), id));
    const body = (await response.json()) as unknown;
    expect(phase === 'batch' ? body : (body as unknown[])[0]).toMatchObject({ errors: [{ message: `Refused (${phase}).` }] });
    await monitoredUpTo(id);
    expect(persistedReads.slice(readsBefore)).toEqual([]);
  });

  it('hands a persisted document yoga serves on resolved: its store is read once, each guard runs once (one operation, and a batch)', async () => {
    // Introspection is yoga's: registered with its document, then asked by its hash alone (under an
    // operation name, so that it is not the answer the response cache kept of the registration).
    const query = 'query Shape { __schema { queryType { name } } }';
    const extensions = { persistedQuery: { version: 1, sha256Hash: sha256(query) } };
    const shape = { data: { __schema: { queryType: { name: 'Query' } } } };
    const writesBefore = persistedWrites.length;
    const registered = await fetch(target.gatewayUrl, withId(post({ query, extensions }), 'handed-register'));
    expect(await registered.json()).toEqual(shape);
    await expect.poll(() => persistedWrites.length).toBeGreaterThan(writesBefore);
    for (const [id, body] of [
      ['handed-hash', { extensions, operationName: 'Shape' }],
      ['handed-batch', [{ extensions, operationName: 'Shape' }, { query: FORWARDED, variables: { first: 7 } }]],
    ] as const) {
      await monitoredUpTo(`${id}-before`);
      const readsBefore = persistedReads.length;
      const response = await fetch(target.gatewayUrl, withId(post(body), id));
      const answer = (await response.json()) as unknown;
      expect(Array.isArray(answer) ? answer[0] : answer).toEqual(shape);
      await monitoredUpTo(id);
      expect(persistedReads.slice(readsBefore)).toHaveLength(1);
    }
    // The guards ran once each, at the door: yoga's stages took their verdicts (and yoga answered
    // the batch's introspection from the answer it kept of the one before).
    expect(runs.get('handed-hash')).toEqual(['head', 'params', 'operation']);
    expect(runs.get('handed-batch')).toEqual(['head', 'batch', 'params', 'params', 'operation']);
  });
});

/**
 * Batches and persisted documents are plain GraphQL over HTTP: the straight path answers them, and
 * the request log's `lane` (which only the straight path sets) says so.
 */
describe('batches and persisted documents on the straight path', () => {
  let stack: Stack;
  let target: AddedGateway;
  const logged: RequestLogEntry[] = [];
  /** Guard runs by phase and request id. */
  const runs = new Map<string, string[]>();
  /** The `query` the params guards last saw, by request id. */
  const queriesSeen = new Map<string, unknown>();
  const count = (phase: string) => (request: { head: { headers: { get(name: string): string | null } } }) => {
    const id = request.head.headers.get('x-request-id') ?? 'none';
    runs.set(id, [...(runs.get(id) ?? []), phase]);
    return undefined;
  };
  beforeAll(async () => {
    stack = await sharedStack('open');
    target = await stack.addGateway({
      guards: {
        head: [{ name: 'count head', check: count('head') }],
        params: [
          { name: 'count params', check: count('params') },
          { name: 'note the query', check: (request, params) => void queriesSeen.set(request.head.headers.get('x-request-id') ?? 'none', (params as { query?: unknown }).query) },
        ],
        batch: [{ name: 'count batch', check: async (request) => count('batch')(request) }],
        operation: [{ name: 'count operation', check: count('operation') }],
      },
      requestLog: (entry) => logged.push(entry),
      settings: { responseCacheTtlSeconds: 60, maxBatchOperations: 3 },
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const send = async (id: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(target.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': id, ...headers }, body: JSON.stringify(body) });
    const text = await response.text();
    await expect.poll(() => logged.some((entry) => entry.requestId === id)).toBe(true);
    return { status: response.status, headers: response.headers, body: JSON.parse(text) as unknown, entry: logged.find((entry) => entry.requestId === id)! };
  };

  it('answers a batch as one array, each guard once per operation and the batch guards once, then from the cache', async () => {
    const operations = [
      { query: FORWARDED, variables: { first: 1 } },
      { query: `${DELEGATED} # batch` },
    ];
    const alone = await Promise.all(operations.map(async (operation, index) => (await send(`batch-alone-${index}`, operation)).body));
    const first = await send('batch-first', [...operations].reverse());
    expect(first.status).toBe(200);
    expect(first.body).toEqual([...alone].reverse());
    // Both answered from the cache: no operation guard, no run.
    expect(runs.get('batch-first')).toEqual(['head', 'batch', 'params', 'params']);
    expect(first.entry).toMatchObject({ operation: 'batch', lane: 'cache' });
    // Answers of its own, not kept before: run on the straight path, kept, and validated as a whole.
    const fresh = [{ query: FORWARDED, variables: { first: 3 } }, { query: FORWARDED, variables: { first: 4 } }];
    const run = await send('batch-fresh', fresh);
    expect(run.entry).toMatchObject({ operation: 'batch', lane: 'direct' });
    expect(runs.get('batch-fresh')).toEqual(['head', 'batch', 'params', 'params', 'operation', 'operation']);
    expect(run.headers.get('etag')).toMatch(/^"[\w-]{43}"$/);
    const again = await fetch(target.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'if-none-match': run.headers.get('etag')! }, body: JSON.stringify(fresh) });
    expect(again.status).toBe(304);
  });

  it('refuses a batch over MAX_BATCH_OPERATIONS in yoga\'s words, its operations never run', async () => {
    const over = await send('batch-over', Array.from({ length: 4 }, () => ({ query: FORWARDED })), { accept: 'application/graphql-response+json' });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ errors: [{ message: 'Batching is limited to 3 operations per request.', extensions: { code: 'BAD_REQUEST' } }] });
    expect(runs.get('batch-over')).toEqual(['head', 'batch']);
  });

  it('answers an automatic persisted query: registered with its document, then its hash alone, over POST and GET', async () => {
    const query = `${FORWARDED} # apq`;
    const extensions = { persistedQuery: { version: 1, sha256Hash: sha256(query) } };
    const registered = await send('apq-register', { query, variables: { first: 2 }, extensions });
    expect(registered.entry.lane).toBe('direct');
    const byHash = await send('apq-hash', { variables: { first: 2 }, extensions });
    expect(byHash.body).toEqual(registered.body);
    expect(byHash.entry.lane).toBe('cache');
    const other = await send('apq-hash-other', { variables: { first: 5 }, extensions });
    expect(other.entry.lane).toBe('direct');
    expect(runs.get('apq-hash-other')).toEqual(['head', 'params', 'operation']);
    const get = await fetch(`${target.gatewayUrl}?variables=${encodeURIComponent('{"first":5}')}&extensions=${encodeURIComponent(JSON.stringify(extensions))}`, { headers: { 'x-request-id': 'apq-get' } });
    expect(await get.json()).toEqual(other.body);
    await expect.poll(() => logged.find((entry) => entry.requestId === 'apq-get')?.lane).toBe('cache');
  });

  it('shows the params guards a persisted query’s parameters as sent, its bytes’ first time as the next (answered as known)', async () => {
    const query = `${FORWARDED} # apq-as-sent`;
    const extensions = { persistedQuery: { version: 1, sha256Hash: sha256(query) } };
    await send('as-sent-register', { query, variables: { first: 2 }, extensions });
    expect(queriesSeen.get('as-sent-register')).toBe(query);
    const lanes: (string | undefined)[] = [];
    for (const id of ['as-sent-first', 'as-sent-again', 'as-sent-known']) {
      lanes.push((await send(id, { variables: { first: 2 }, extensions })).entry.lane);
      expect(queriesSeen.get(id), id).toBeUndefined();
    }
    expect(lanes).toEqual(['cache', 'cache', 'cache']);
  });

  it('logs the causes of a batch’s forwarded operation’s errors, though another of its operations was delegated (in production)', async () => {
    await withTranslationDown(stack, {}, async (down, lines) => {
      const linked = 'query Read($to: String!) { problems(first: 1) { nodes { id translation(to: $to) { title } } } }';
      const ask = (body: unknown) => fetch(down.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (response) => (await response.json()) as { errors?: unknown[] }[]);
      // Planned first, so that the batch below is the straight path's.
      await ask([{ query: DELEGATED }, { query: linked, variables: { to: 'es' } }]);
      lines.length = 0;
      const [delegated, forwarded] = await ask([{ query: DELEGATED }, { query: linked, variables: { to: 'fr' } }]);
      expect(delegated.errors).toBeUndefined();
      expect(forwarded.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'UPSTREAM_UNAVAILABLE' }) })]);
      expect(lines.map(withoutAddress)).toEqual(['mesh: connect ECONNREFUSED ADDRESS']);
    });
  });

  it.each([
    ['application/graphql-response+json', 404],
    ['application/json', 404],
  ])('answers an unknown hash with PERSISTED_QUERY_NOT_FOUND (%s: %i), which no cache may keep', async (accept, status) => {
    const unknown = await send(`apq-unknown-${accept.length}`, { extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ unknown }') } } }, { accept });
    expect(unknown.status).toBe(status);
    expect(unknown.headers.get('cache-control')).toContain('no-cache');
    expect(unknown.headers.get('content-type')).toBe(`${accept}; charset=utf-8`);
    expect(unknown.body).toEqual({ errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] });
  });
});

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function withId(init: RequestInit, id: string): RequestInit {
  return { ...init, headers: { ...(init.headers as Record<string, string>), 'x-request-id': id } };
}
