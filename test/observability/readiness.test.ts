import { createYoga } from 'graphql-yoga';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useReadiness } from '../../src/gateway/observability/use-readiness.ts';
import { PROBLEMS_KEY, TRANSLATION_KEY, startStack, type Stack } from '../helpers/start-stack.ts';
import { baseOf } from './helpers.ts';
import { standInTranslation, titleOf } from '../helpers/stand-in-translation.ts';

/**
 * GET /readiness: 200 while the gateway can serve, with each upstream's state (checked at probe time)
 * in the body, `degraded` when one fails; 503 only once it is shutting down.
 */
describe('readiness and health', () => {
  let stack: Stack;
  let base: string;

  const readiness = async (url = base) => {
    const response = await fetch(`${url}/readiness`);
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text), text };
  };
  /** Nothing an operator must keep secret, nor where the upstreams live. */
  const expectNoSecrets = (text: string) => {
    for (const secret of [PROBLEMS_KEY, TRANSLATION_KEY, 'wrong-translation-key', '127.0.0.1', 'http']) expect(text).not.toContain(secret);
  };

  beforeAll(async () => {
    stack = await startStack();
    base = baseOf(stack.gatewayUrl);
  });
  afterAll(async () => {
    await stack?.close();
  });
  afterEach(() => {
    stack.translation.clearFaults();
  });

  it('MUST answer 200 "ready" when both upstreams answer with their keys', async () => {
    const { status, body } = await readiness();
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'ready', services: { problems: 'ok', translation: 'ok' }, standIns: false, schema: expect.objectContaining({ source: 'live', lastCheck: 'ok' }) });
  });

  it('MUST stay in rotation (200 "degraded") with translation down, since problems queries are still served', async () => {
    const other = await stack.addGateway({ settings: { translationUrl: 'http://127.0.0.1:9' } });
    const { status, body, text } = await readiness(baseOf(other.gatewayUrl));
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'degraded', services: { problems: 'ok', translation: 'unreachable' }, standIns: false, schema: expect.objectContaining({ source: 'live', lastCheck: 'ok' }) });
    expectNoSecrets(text);
    const served = await other.query(/* GraphQL */ `{ problem(id: "p1001") { title } }`);
    expect(served.errors).toBeUndefined();
    expect(served.data.problem.title).toBe(titleOf('p1001'));
  });

  it('MUST stay in rotation (200 "degraded") with problems down, since translation queries are still served', async () => {
    const other = await stack.addGateway({ settings: { problemsUrl: 'http://127.0.0.1:9' } });
    const { status, body, text } = await readiness(baseOf(other.gatewayUrl));
    expect(status).toBe(200);
    // Down at start: the committed snapshot serves, and readiness says why.
    expect(body).toEqual({
      status: 'degraded',
      services: { problems: 'unreachable', translation: 'ok' },
      standIns: false,
      schema: expect.objectContaining({ source: 'snapshot', lastCheck: 'unreachable' }),
    });
    expectNoSecrets(text);
    const served = await other.query(/* GraphQL */ `{ translation { translate(text: "Print the answer.", to: "es") { text } } }`);
    expect(served.errors).toBeUndefined();
    expect(served.data.translation.translate.text).toBe(standInTranslation('Print the answer.', 'es'));
  });

  it('MUST name translation when it refuses the key, without the key', async () => {
    const other = await stack.addGateway({ settings: { translationApiKey: 'wrong-translation-key' } });
    const { status, body, text } = await readiness(baseOf(other.gatewayUrl));
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'degraded', services: { problems: 'ok', translation: 'refused the key (HTTP 403)' }, standIns: false, schema: expect.objectContaining({ source: 'live', lastCheck: 'ok' }) });
    expectNoSecrets(text);
  });

  it('reports each upstream as the gateway_upstream_up metric, as of the last check', async () => {
    const other = await stack.addGateway({ settings: { translationUrl: 'http://127.0.0.1:9' } });
    await readiness(baseOf(other.gatewayUrl));
    const text = await (await fetch(`${baseOf(other.gatewayUrl)}/metrics`)).text();
    expect(text).toMatch(/^gateway_upstream_up\{service="problems"\} 1$/m);
    expect(text).toMatch(/^gateway_upstream_up\{service="translation"\} 0$/m);
  });

  it('reports other dependencies beside the upstreams: a failing or silent one degrades, never takes the gateway out', async () => {
    const { problemsUrl, problemsApiKey, translationUrl, translationApiKey } = stack.upstreamSettings;
    const yoga = createYoga({
      logging: false,
      plugins: [
        useReadiness({
          upstreams: { problems: { url: problemsUrl, apiKey: problemsApiKey }, translation: { url: translationUrl, apiKey: translationApiKey } },
          dependencies: { redis: async () => 'unreachable (connection refused)', store: () => new Promise<string>(() => undefined), cache: async () => 'ok' },
          timeoutMs: 60_000,
        }),
      ],
    });
    // The silent store's wait runs out on the test's clock; the upstreams answer in real time, however
    // long a loaded machine takes, within a limit they never reach.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let response: Response;
    try {
      const answering = yoga.fetch('http://gateway/readiness');
      await vi.waitFor(() => expect(vi.getTimerCount()).toBeGreaterThan(0));
      vi.advanceTimersByTime(60_000);
      response = await answering;
    } finally {
      vi.useRealTimers();
    }
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'degraded',
      services: { problems: 'ok', translation: 'ok', redis: 'unreachable (connection refused)', store: 'did not answer within 60000 ms', cache: 'ok' },
      standIns: false,
    });
  });

  it('says when local stand-ins serve the gateway', async () => {
    const other = await stack.addGateway({ settings: { standIns: true } });
    expect((await readiness(baseOf(other.gatewayUrl))).body).toMatchObject({ status: 'ready', standIns: true });
  });

  it('MUST answer 503 "shutting down" once the HTTP server it came through stops accepting connections', async () => {
    // What a request on a connection still open after `server.close()` carries (yoga's server context).
    const closedServer = { req: { socket: { server: { listening: false } } } };
    const openServer = { req: { socket: { server: { listening: true } } } };
    const probe = (serverContext: object) => stack.gateway.yoga.fetch(new Request('http://gateway/readiness'), serverContext);
    const during = await probe(closedServer);
    expect(during.status).toBe(503);
    expect(await during.json()).toEqual({ status: 'shutting down', standIns: false });
    expect((await probe(openServer)).status).toBe(200);
  });

  it('says how an upstream fails: an error status, or no answer within the time limit', async () => {
    stack.translation.setFaults({ status: 503, routes: ['GET /languages'] });
    // Each answer is reused for a moment: ask gateways that have not checked yet.
    expect((await readiness(baseOf((await stack.addGateway()).gatewayUrl))).body.services.translation).toBe('answered HTTP 503');
    stack.translation.setFaults({ hang: true, routes: ['GET /languages'] });
    const other = await stack.addGateway();
    const { status, body } = await readiness(baseOf(other.gatewayUrl));
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'degraded', services: { problems: 'ok', translation: 'did not answer within 2000 ms' } });
  });

  it('reuses a result for a moment, so a storm of probes costs one check', async () => {
    const other = await stack.addGateway();
    const languageCalls = () => stack.translation.stats.byRoute['GET /languages'] ?? 0;
    const before = languageCalls();
    // The moment (2 s) on the test's clock: however slowly a loaded machine answers, it has not passed
    // until the test moves the clock on.
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const results = await Promise.all(Array.from({ length: 20 }, () => readiness(baseOf(other.gatewayUrl))));
      expect(results.every((result) => result.status === 200)).toBe(true);
      expect(await readiness(baseOf(other.gatewayUrl))).toMatchObject({ status: 200 });
      expect(languageCalls() - before).toBe(1);
      vi.advanceTimersByTime(2_001);
      expect(await readiness(baseOf(other.gatewayUrl))).toMatchObject({ status: 200 });
      expect(languageCalls() - before).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps /healthcheck, /readiness and /metrics open when gateway keys are required', async () => {
    const guarded = await stack.addGateway({ settings: { gatewayApiKeys: ['client-key'] } });
    const url = baseOf(guarded.gatewayUrl);
    expect((await fetch(`${url}/healthcheck`)).status).toBe(200);
    expect((await readiness(url)).status).toBe(200);
    expect((await fetch(`${url}/metrics`)).status).toBe(200);
    expect((await guarded.query('{ __typename }')).status).toBe(401);
  });
});
