import type { RequestListener } from 'node:http';
import { buildClientSchema, introspectionFromSchema, type GraphQLSchema } from 'graphql';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/create-gateway.ts';
import type { RequestLogEntry } from '../../src/gateway/observability/request-log.ts';
import { withHash } from '../../src/gateway/schema/introspection.ts';
import { createLiveProblemsSchema } from '../../src/gateway/schema/live-problems-schema.ts';
import { listen } from '../../src/shared/listen.ts';
import { createTranslationService } from '../../src/upstreams/translation/service.ts';
import { createChangingProblemsService, SCHEMAS } from '../helpers/changing-problems-service.ts';
import { postGraphQL, PROBLEMS_KEY, TRANSLATION_KEY, type GraphQLResponse } from '../helpers/start-stack.ts';

const TITLES = /* GraphQL */ `{ problems(first: 3) { nodes { id title } } }`;
const RATING = /* GraphQL */ `{ problems(first: 2) { nodes { id rating } } }`;

describe('the problems schema, live: what follows a swap', () => {
  /** A gateway over `upstream` (the changing service's listener, or one in front of it), polling every 0.2 s; all closed after the test. */
  async function gatewayOver(upstream: RequestListener, options: GatewayOptions = {}) {
    const [problems, translation] = await Promise.all([listen(upstream), listen(createTranslationService({ apiKey: TRANSLATION_KEY }).listener)]);
    const logs: string[] = [];
    const entries: RequestLogEntry[] = [];
    const settings = { problemsUrl: problems.url, translationUrl: translation.url, problemsApiKey: PROBLEMS_KEY, translationApiKey: TRANSLATION_KEY };
    const gateway = await createGateway({
      log: (line) => void logs.push(line),
      requestLog: (entry) => void entries.push(entry),
      ...options,
      settings: { ...settings, upstreamBreakerFailures: 0, responseCacheTtlSeconds: 0, problemsSchemaPollSeconds: 0.2, ...options.settings },
    });
    const server = await listen(gateway.listener);
    onTestFinished(async () => {
      await server.close();
      await gateway.close();
      await Promise.all([problems.close(), translation.close()]);
    });
    const served = async (schema: GraphQLSchema) => {
      const hash = withHash(schema).hash;
      await expect.poll(async () => ((await (await fetch(`${server.url}/readiness`)).json()) as { schema: { hash: string } }).schema.hash, { timeout: 20_000, interval: 50 }).toBe(hash);
    };
    return { gateway, url: `${server.url}/graphql`, logs, entries, served };
  }

  it('keeps and reads problems answers under the schema a request runs on, even when the swap comes in the middle of it', async () => {
    const service = createChangingProblemsService({ apiKey: PROBLEMS_KEY });
    // Holds a request after the gateway validated it (on the engine it started on), before any upstream call.
    let hold: Promise<void> | undefined;
    let holding = 0;
    const running = await gatewayOver(service.listener, {
      settings: { problemsCacheTtlSeconds: 60 },
      guards: { operation: [{ name: 'hold', check: () => (hold ? ((holding += 1), hold.then(() => undefined)) : undefined) }] },
    });
    /** How many calls to the service the answer took, by its request log line (0: the problems cache answered). */
    let answered = 0;
    const callsOf = async (asked: Promise<GraphQLResponse>) => {
      expect((await asked).errors).toBeUndefined();
      answered += 1;
      await expect.poll(() => running.entries.length).toBe(answered);
      return running.entries.at(-1)!.upstreamCalls.problems;
    };
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    const started = postGraphQL(running.url, TITLES);
    await expect.poll(() => holding).toBe(1);
    service.setSchema(SCHEMAS.fieldAdded);
    await running.served(SCHEMAS.fieldAdded);
    hold = undefined;
    release();
    expect(await callsOf(started)).toBe(1);
    // On the new schema, the answer made on the old one is not served: the call is made again.
    expect(await callsOf(postGraphQL(running.url, TITLES))).toBe(1);
    expect(await callsOf(postGraphQL(running.url, TITLES))).toBe(0);
    // Back on the old schema, the answer the held request kept under it is served.
    service.setSchema(SCHEMAS.base);
    await running.served(SCHEMAS.base);
    expect(await callsOf(postGraphQL(running.url, TITLES))).toBe(0);
  });

  it('tells the new hash in the turn of the swap: no request, /readiness or scrape sees one without the other', async () => {
    const answers = [SCHEMAS.base, SCHEMAS.fieldAdded].map((schema) => JSON.stringify({ data: introspectionFromSchema(schema) }));
    let introspections = 0;
    const logs: string[] = [];
    const seen: { atSwap: string; nextMicrotask?: string; logged: number }[] = [];
    const live = createLiveProblemsSchema({
      introspection: {
        endpoint: 'http://problems.test/graphql',
        apiKey: PROBLEMS_KEY,
        timeoutMs: 1000,
        maxBytes: 1024 * 1024,
        fetch: (async () => new Response(answers[Math.min(introspections++, 1)], { headers: { 'content-type': 'application/json' } })) as typeof fetch,
      },
      snapshotPath: '/nonexistent',
      pollMs: 0,
      log: (line) => void logs.push(line),
      onChange: async () => () => {
        const record: (typeof seen)[number] = { atSwap: live.status().hash, logged: logs.length };
        seen.push(record);
        queueMicrotask(() => (record.nextMicrotask = live.status().hash));
      },
    });
    const first = await live.start();
    expect(first.hash).toBe(withHash(buildClientSchema(introspectionFromSchema(SCHEMAS.base))).hash);
    const logged = logs.length;
    await live.check();
    live.stop();
    const next = withHash(buildClientSchema(introspectionFromSchema(SCHEMAS.fieldAdded))).hash;
    // The swap is called before the status changes, in the same turn; the next microtask sees both changed.
    expect(seen).toEqual([{ atSwap: first.hash, nextMicrotask: next, logged }]);
    expect(live.status().hash).toBe(next);
    expect(logs.slice(logged)).toEqual([expect.stringMatching(new RegExp(`^problems schema: now serving ${next.slice(0, 12)} \\(was ${first.hash.slice(0, 12)}\\)`))]);
  });

  describe('in production, a problems refusal', () => {
    /** In front of the service at `upstream`: operations naming `rating` are refused with `status`, quoting the key sent; the rest passes. */
    function refusingWithKey(upstream: string, status: 200 | 400): RequestListener {
      return (request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          if (!body.includes('rating') || body.includes('__schema')) {
            void fetch(`${upstream}${request.url}`, { method: request.method, headers: request.headers as Record<string, string>, body: request.method === 'GET' ? undefined : body }).then(async (answer) => {
              response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(await answer.text());
            });
            return;
          }
          const message = `Cannot query field "rating" on type "Problem". (asked with ${request.headers.authorization})`;
          response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ errors: [{ message }] }));
        });
      };
    }
    const WORDS = 'Cannot query field "rating" on type "Problem".';

    /** A production gateway over a service that refuses RATING as `quoting` says (undefined: as the service itself does, by HTTP 400), asked RATING. */
    async function refused(quoting: 200 | 400 | undefined) {
      const service = createChangingProblemsService({ apiKey: PROBLEMS_KEY });
      let upstream: RequestListener = service.listener;
      if (quoting !== undefined) {
        const behind = await listen(service.listener);
        onTestFinished(() => behind.close());
        upstream = refusingWithKey(behind.url, quoting);
      }
      const running = await gatewayOver(upstream, { settings: { production: true, problemsSchemaPollSeconds: 0 } });
      // The gateway validates `rating` against the schema it started on; the service no longer has it.
      if (quoting === undefined) service.setSchema(SCHEMAS.fieldRemoved);
      return { running, result: await postGraphQL(running.url, RATING) };
    }

    it.each([
      ['as the service refuses it', undefined, 'UPSTREAM_BAD_REQUEST', 'The problems service rejected the request (HTTP 400).'],
      ['quoting the key back, in an HTTP 400', 400, 'UPSTREAM_BAD_REQUEST', 'The problems service rejected the request (HTTP 400).'],
      ['quoting the key back, in errors of a 200', 200, 'UPSTREAM_ERROR', 'The problems service reported an error.'],
    ] as const)("%s: the client gets the masked message, the request log line the service's words", async (_, quoting, code, masked) => {
      const { running, result } = await refused(quoting);
      expect(result.errors).toEqual([expect.objectContaining({ message: masked, extensions: expect.objectContaining({ code }) })]);
      expect(result.text).not.toContain(WORDS);
      expect(result.text).not.toContain(PROBLEMS_KEY);
      expect(running.entries.map((entry) => entry.upstreamErrors)).toEqual([[expect.objectContaining({ service: 'problems', code, cause: expect.stringContaining(WORDS) })]]);
      expect(running.logs.join('\n')).not.toContain(PROBLEMS_KEY);
      // A key quoted in errors of a 200 is the test after this one.
      if (quoting !== 200) expect(JSON.stringify(running.entries)).not.toContain(PROBLEMS_KEY);
    });

    // An error the service writes in a 200 answer loses the key as an HTTP error's message does
    // (upstream-errors.ts, disownErrors), before it reaches the log line or a development client.
    it('never carries a key the service quotes back in errors of a 200 answer into the request log line', async () => {
      const { running } = await refused(200);
      expect(JSON.stringify(running.entries)).not.toContain(PROBLEMS_KEY);
    });
  });
});
