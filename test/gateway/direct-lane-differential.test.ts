import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranslationFaults } from '../../src/upstreams/translation/faults.ts';
import { lanesTaken } from '../helpers/ask-three-ways.ts';
import { pairwise } from '../helpers/pairwise.ts';
import { seeded } from '../helpers/random-operations.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';

/**
 * The front door's straight path against Mesh's delegation through yoga, over every pair of values
 * of what clients vary:
 * `Accept`, `Content-Type`, operation names, variables (missing, extra, wrong), documents with
 * several operations, links with good and bad language arguments, GET; then the headers the lane
 * reads itself (the key, a browser's Origin, validators, request ids). Each request is sent
 * twice through the listener (the second time answered by the lane when it takes it) and once to a
 * gateway of the same settings that delegates everything (FAST_PATH_ENABLED=false: its door leaves
 * every operation to yoga and Mesh); the last two must agree on status, the headers a client reads
 * and the bytes.
 */
const KEY = 'differential-key';
const ORIGIN = 'https://app.example';
const ACCEPTS = [
  undefined,
  'application/json, text/plain, */*',
  'application/graphql-response+json;charset=utf-8, application/json;charset=utf-8',
  '*/*;q=0.8',
  'application/json;q=0.9, application/graphql-response+json',
  'APPLICATION/JSON',
  'application/json;charset=latin1, application/graphql-response+json',
  'multipart/mixed, application/json',
  'text/html',
];
const CONTENT_TYPES = ['application/json', 'application/json; charset=UTF-8', 'Application/JSON', 'application/json ; Charset=utf-8', 'application/json, text/plain'];
const BY_ID = 'query A($id: ID!) { problem(id: $id) { id title } }';
const TWO = 'query A($id: ID!) { problem(id: $id) { id title } } query B { problems(first: 1) { nodes { id } } }';
const LINKED = 'query L($to: String!) { problems(first: 2) { nodes { id translation(to: $to) { title language } } } }';
const BODIES: Record<string, unknown>[] = [
  { query: BY_ID, variables: { id: 'p1001' } },
  { query: BY_ID, variables: { id: 'p1001' }, operationName: 'A' },
  { query: BY_ID, variables: { id: 'p1001' }, operationName: null },
  { query: BY_ID, variables: { id: 'p1001' }, operationName: '' },
  { query: BY_ID, variables: { id: 'nope' } },
  { query: BY_ID, variables: { id: 5 } },
  { query: BY_ID, variables: {} },
  { query: BY_ID, variables: { id: 'p1001', extra: 1 } },
  { query: BY_ID, variables: { id: 'p1001' }, extensions: { anything: 1 } },
  { query: TWO, variables: { id: 'p1001' }, operationName: 'A' },
  { query: TWO, operationName: 'B' },
  { query: TWO, variables: { id: 'p1001' } },
  { query: LINKED, variables: { to: 'es' } },
  { query: LINKED, variables: { to: 'ES' } },
  { query: LINKED, variables: { to: 'es-MX' } },
  { query: LINKED, variables: { to: 'xx' } },
  { query: LINKED, variables: { to: '' } },
];

describe('the direct lane and yoga over what clients vary', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await sharedStack('open');
  });
  afterAll(async () => {
    await stack?.close();
  });

  it.each([
    ['response cache off', { responseCacheTtlSeconds: 0 }],
    // Set here: the stack's gateways have the response cache off unless a test sets it.
    ['response cache on', { responseCacheTtlSeconds: 60 }],
  ])('agree on every combination (%s)', async (_name, cache) => {
    const log = lanesTaken();
    const settings = { gatewayApiKeys: [KEY], corsOrigins: [ORIGIN], problemsCacheTtlSeconds: 0, ...cache };
    const target = await stack.addGateway({ requestLog: log.requestLog, settings });
    const delegating = await stack.addGateway({ settings: { ...settings, fastPathEnabled: false } });
    const readHeaders = ['content-type', 'content-length', 'cache-control', 'vary', 'etag', 'access-control-allow-origin', 'access-control-allow-credentials', 'access-control-expose-headers', 'retry-after'];
    const differences: string[] = [];
    // How the second request of each case was answered: a lane that took no case was never compared.
    const taken: Record<string, number> = {};
    const compare = async (label: string, url: string, init: RequestInit) => {
      await (await fetch(url, init)).text();
      const lane = await fetch(url, init);
      const way = log.laneOf(lane);
      taken[way] = (taken[way] ?? 0) + 1;
      const yoga = await fetch(url.replace(target.gatewayUrl, delegating.gatewayUrl), init);
      const seen = async (response: Response) => `${response.status} ${readHeaders.map((name) => `${name}=${response.headers.get(name)}`).join(' ')} ${await response.text()}`;
      const [fromLane, fromYoga] = [await seen(lane), await seen(yoga)];
      // With the cache on, max-age counts down from when each gateway kept its answer: compared apart.
      const ageOf = (seen: string) => Number(/max-age=(\d+)/.exec(seen)?.[1] ?? 0);
      const withoutAge = (seen: string) => seen.replace(/max-age=\d+/, 'max-age=N');
      if (withoutAge(fromLane) === withoutAge(fromYoga) && Math.abs(ageOf(fromLane) - ageOf(fromYoga)) <= 5) return;
      differences.push(`${label}\n  lane ${fromLane.slice(0, 400)}\n  yoga ${fromYoga.slice(0, 400)}`);
    };
    // Every pair of body, Accept and Content-Type (not every triple: the lane reads each on its own),
    // and every body with every Accept by GET.
    for (const [body, accept, contentType] of pairwise(BODIES, ACCEPTS, CONTENT_TYPES)) {
      const acceptHeader: Record<string, string> = accept === undefined ? {} : { accept };
      const headers = { authorization: `Bearer ${KEY}`, 'content-type': contentType, ...acceptHeader };
      await compare(`POST ${JSON.stringify(body)} accept=${accept} content-type=${contentType}`, target.gatewayUrl, { method: 'POST', headers, body: JSON.stringify(body) });
      const search = new URLSearchParams({ query: String(body.query) });
      if (body.variables !== undefined) search.set('variables', JSON.stringify(body.variables));
      if (typeof body.operationName === 'string') search.set('operationName', body.operationName);
      await compare(`GET ${search} accept=${accept}`, `${target.gatewayUrl}?${search}`, { headers: { authorization: `Bearer ${KEY}`, ...acceptHeader } });
    }
    // The headers the lane reads itself: the key (in every spelling a client may send, wrong or
    // missing), a browser's Origin (allowed or not), validators and request ids; every pair of them.
    const body = JSON.stringify(BODIES[0]);
    const authorizations = [`Bearer ${KEY}`, `bearer ${KEY}`, `Bearer  ${KEY}`, `BEARER ${KEY} `, 'Bearer wrong', undefined, `Basic ${KEY}`];
    const extras: Record<string, string>[] = [{}, { 'if-none-match': '"other"' }, { 'if-none-match': '*' }, { 'x-request-id': 'bad id with spaces' }, { 'x-graphql-yoga-csrf': '1' }];
    for (const [authorization, extra, origin] of pairwise(authorizations, extras, [undefined, ORIGIN, 'https://elsewhere.example', 'null'])) {
      const headers: Record<string, string> = { 'content-type': 'application/json', ...extra };
      if (authorization !== undefined) headers.authorization = authorization;
      if (origin !== undefined) headers.origin = origin;
      await compare(`POST authorization=${authorization} origin=${origin} ${JSON.stringify(extra)}`, target.gatewayUrl, { method: 'POST', headers, body });
    }
    expect(differences).toEqual([]);
    expect(taken.direct ?? 0, JSON.stringify(taken)).toBeGreaterThan(0);
    expect(taken.yoga ?? 0, JSON.stringify(taken)).toBeGreaterThan(0);
    if (cache.responseCacheTtlSeconds === 0) expect(taken.cache, JSON.stringify(taken)).toBeUndefined();
    else expect(taken.cache ?? 0, JSON.stringify(taken)).toBeGreaterThan(0);
  }, 120_000);

  it('agree on random variable values for vetted texts: wrong types, nulls, lists, objects, huge numbers and strings', async () => {
    const log = lanesTaken();
    const settings = { gatewayApiKeys: [KEY], problemsCacheTtlSeconds: 0, responseCacheTtlSeconds: 0, rateLimitRequests: 1_000_000 };
    const target = await stack.addGateway({ requestLog: log.requestLog, settings });
    const delegating = await stack.addGateway({ settings: { ...settings, fastPathEnabled: false } });
    const random = seeded(7);
    const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const VALUES: unknown[] = [null, 0, 1, -1, 2.5, 1e20, 2147483648, '1', '', 'p1001', 'es', 'ES', true, false, [], ['p1001'], [1, 'x'], {}, { direction: 'ASC', field: 'RATING' }, { ratingMin: 1 }, { ratingMin: '1' }, 'HARD', ['HARD'], { difficulty: ['HARD', 'NOPE'] }, 'x'.repeat(3000), 'y'.repeat(20_000), 101, 1000, { a: { b: { c: 1 } } }, 'NaN'];
    const TEXTS = [
      'query Q($id: ID!) { problem(id: $id) { id title } }',
      'query Q($first: Int, $after: String) { problems(first: $first, after: $after) { nodes { id } } }',
      'query Q($f: ProblemFilter, $s: ProblemSort) { problems(first: 2, filter: $f, sort: $s) { nodes { id rating } } }',
      'query Q($to: String!, $from: String) { problem(id: "p1001") { translation(to: $to, from: $from) { title language } } }',
      'query Q($b: Boolean!) { problem(id: "p1001") { id title @include(if: $b) } }',
    ];
    const GOOD: Record<string, unknown> = { id: 'p1001', first: 2, to: 'es', b: true };
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${KEY}` };
    const seen = async (response: Response) => `${response.status} ${response.headers.get('content-type')} ${await response.text()}`;
    const differences: string[] = [];
    const taken: Record<string, number> = {};
    for (const query of TEXTS) {
      const names = [...query.matchAll(/\$(\w+):/g)].map((match) => match[1]);
      // Vetted once with good values, so the lane takes the text from then on.
      await (await fetch(target.gatewayUrl, { method: 'POST', headers, body: JSON.stringify({ query, variables: Object.fromEntries(names.filter((name) => name in GOOD).map((name) => [name, GOOD[name]])) }) })).text();
      // Each value once in each text, in one of its variables (in turn), the others random.
      for (const [index, value] of VALUES.entries()) {
        const variables: Record<string, unknown> = {};
        for (const name of names) if (random() < 0.85) variables[name] = pick(VALUES);
        variables[names[index % names.length]] = value;
        const body = JSON.stringify({ query, variables: random() < 0.05 ? null : variables });
        const answered = await fetch(target.gatewayUrl, { method: 'POST', headers, body });
        const way = log.laneOf(answered);
        taken[way] = (taken[way] ?? 0) + 1;
        const lane = await seen(answered);
        const yoga = await seen(await fetch(delegating.gatewayUrl, { method: 'POST', headers, body }));
        if (lane !== yoga) differences.push(`${body.slice(0, 200)}\n  lane ${lane.slice(0, 300)}\n  yoga ${yoga.slice(0, 300)}`);
      }
    }
    expect(differences).toEqual([]);
    // Values that coerce are forwarded by the lane, the others left to yoga (graphql-js words their errors).
    expect(taken.direct ?? 0, JSON.stringify(taken)).toBeGreaterThan(0);
    expect(taken.yoga ?? 0, JSON.stringify(taken)).toBeGreaterThan(0);
  }, 60_000);

  it('agree on a page in the reader’s language whatever the translation service does wrong (in production)', async () => {
    // Outside production, Mesh rewrites errors whose cause is no GraphQL error (a timeout), dropping
    // their locations on yoga's side only (README "The direct lane"); production is what must agree.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      const log = lanesTaken();
      const settings = { gatewayApiKeys: [KEY], production: true, problemsCacheTtlSeconds: 0, responseCacheTtlSeconds: 0, translationCacheTtlSeconds: 0, upstreamRetries: 0 };
      const page = (first: number): RequestInit => ({
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
        body: JSON.stringify({ query: 'query L($to: String!, $first: Int) { problems(first: $first) { nodes { id title translation(to: $to) { title language statement } } } }', variables: { to: 'es', first } }),
      });
      /** The lane's gateway and a delegating one, both with the same history: what the translation service accepted before words its refusals. */
      const pairOf = async (more: { translationTimeoutMs?: number }) => {
        const target = await stack.addGateway({ requestLog: log.requestLog, settings: { ...settings, ...more } });
        const delegating = await stack.addGateway({ settings: { ...settings, ...more, fastPathEnabled: false } });
        for (const url of [target.gatewayUrl, delegating.gatewayUrl]) await (await fetch(url, page(1))).text();
        return [target, delegating];
      };
      // Faults the service answers: met under the default time budget, which no answer of a busy
      // machine exceeds; the service that answers late or never, under a short one.
      const [answering, timingOut] = [await pairOf({}), await pairOf({ translationTimeoutMs: 300 })];
      const faults: [TranslationFaults, typeof answering][] = [
        [{ status: 500 }, answering],
        [{ status: 503, retryAfter: 1 }, answering],
        [{ status: 429, retryAfter: 2 }, answering],
        [{ status: 400 }, answering],
        [{ status: 413 }, answering],
        [{ status: 401 }, answering],
        [{ status: 502, body: '<html>bad gateway</html>' }, answering],
        [{ badBody: 'not-json' }, answering],
        [{ badBody: 'wrong-shape' }, answering],
        [{ badBody: 'short-array' }, answering],
        [{ badBody: 'empty' }, answering],
        [{ hang: true }, timingOut],
        [{ latencyMs: 400 }, timingOut],
        [{ status: 500, everyNth: 2 }, answering],
      ];
      const differences: string[] = [];
      const taken: Record<string, number> = {};
      for (const [index, [fault, pair]] of faults.entries()) {
        const [target, delegating] = pair;
        const first = 2 + (index % 3);
        const answers: string[] = [];
        // The lane (the text was vetted above), then Mesh's delegation, each meeting the fault afresh.
        for (const send of [() => fetch(target.gatewayUrl, page(first)), () => fetch(delegating.gatewayUrl, page(first))]) {
          stack.translation.setFaults({ ...fault, routes: ['POST /translate'] });
          const response = await send();
          const way = log.laneOf(response);
          if (answers.length === 0) taken[way] = (taken[way] ?? 0) + 1;
          answers.push(`${response.status} ${['content-type', 'content-length', 'retry-after'].map((name) => response.headers.get(name)).join(' ')} ${await response.text()}`);
        }
        if (answers[0] !== answers[1]) differences.push(`${JSON.stringify(fault)}\n  lane ${answers[0].slice(0, 400)}\n  yoga ${answers[1].slice(0, 400)}`);
        // A service failing every other call fails a page only when the page takes two calls or more;
        // either way the lane answers as yoga does (above).
        if (!fault.everyNth) expect(answers[0], JSON.stringify(fault)).toMatch(/"translation":null/);
        if (pair === timingOut) expect(answers[0], JSON.stringify(fault)).toContain('"code":"UPSTREAM_TIMEOUT"');
      }
      expect(differences).toEqual([]);
      // The lane took the page every time (its text was vetted): compared with yoga under each fault.
      expect(taken, JSON.stringify(taken)).toEqual({ direct: faults.length });
    } finally {
      stack.translation.clearFaults();
      process.env.NODE_ENV = nodeEnv;
    }
  }, 60_000);
});
