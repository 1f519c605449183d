import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEMS_KEY, TRANSLATION_KEY, startStack, type Stack } from '../helpers/start-stack.ts';
import { baseOf } from './helpers.ts';

/** GET /readiness: both upstreams reachable and accepting the gateway's keys, checked at probe time. */
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
    expect(body).toEqual({ status: 'ready', services: { problems: 'ok', translation: 'ok' } });
  });

  it('MUST answer 503 naming translation when it refuses the key, without the key', async () => {
    const other = await stack.addGateway({ settings: { translationApiKey: 'wrong-translation-key' } });
    const { status, body, text } = await readiness(baseOf(other.gatewayUrl));
    expect(status).toBe(503);
    expect(body).toEqual({ status: 'not ready', services: { problems: 'ok', translation: 'refused the key (HTTP 403)' } });
    expectNoSecrets(text);
  });

  it('MUST answer 503 naming problems when it cannot be reached, without its URL', async () => {
    const other = await stack.addGateway({ settings: { problemsUrl: 'http://127.0.0.1:9' } });
    const { status, body, text } = await readiness(baseOf(other.gatewayUrl));
    expect(status).toBe(503);
    expect(body).toEqual({ status: 'not ready', services: { problems: 'unreachable', translation: 'ok' } });
    expectNoSecrets(text);
  });

  it('says how an upstream fails: an error status, or no answer within the time limit', async () => {
    stack.translation.setFaults({ status: 503, routes: ['GET /languages'] });
    // Each answer is reused for a moment: ask gateways that have not checked yet.
    expect((await readiness(baseOf((await stack.addGateway()).gatewayUrl))).body.services.translation).toBe('answered HTTP 503');
    stack.translation.setFaults({ hang: true, routes: ['GET /languages'] });
    const other = await stack.addGateway();
    const { status, body } = await readiness(baseOf(other.gatewayUrl));
    expect(status).toBe(503);
    expect(body.services).toEqual({ problems: 'ok', translation: 'did not answer within 2000 ms' });
  });

  it('reuses a result for a moment, so a storm of probes costs one check', async () => {
    const other = await stack.addGateway();
    const languageCalls = () => stack.translation.stats.byRoute['GET /languages'] ?? 0;
    const before = languageCalls();
    const results = await Promise.all(Array.from({ length: 20 }, () => readiness(baseOf(other.gatewayUrl))));
    expect(results.every((result) => result.status === 200)).toBe(true);
    expect(await readiness(baseOf(other.gatewayUrl))).toMatchObject({ status: 200 });
    expect(languageCalls() - before).toBe(1);
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
