import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../src/gateway/observability/index.ts';
import { watchKeyRefusals } from '../../src/gateway/observability/use-readiness.ts';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { TRANSLATION_KEY, startStack, type Stack } from '../helpers/start-stack.ts';
import { baseOf } from './helpers.ts';

// Characters that URL-encoding changes, as keys in base64 often carry.
const WRONG_KEY = 'WRONG-translation-key+5f1c/A=';
const TRANSLATE = (text: string) => /* GraphQL */ `query Translate { translation { translate(text: ${JSON.stringify(text)}, to: "es") { text } } }`;

/**
 * With a wrong translation key the readiness check, GET /languages, passes (a LibreTranslate-compatible
 * service asks no key for it) while every translation is refused: readiness must report what the
 * calls see, and the request log must say why they failed.
 */
describe('a translation service that refuses the key', () => {
  let stack: Stack;
  let front: RunningServer;
  /** How the service in front answers POST /translate: as the stand-in does, or quoting the key it was sent, in this form. */
  let quoteKey: ((key: string) => string) | undefined;
  let gatewayUrl: string;
  const logged: RequestLogEntry[] = [];

  beforeAll(async () => {
    stack = await startStack();
    // LibreTranslate's way: the language list is open to anyone, the rest needs the key.
    front = await listen((request: IncomingMessage, response: ServerResponse) => {
      if (request.method === 'GET' && request.url === '/languages') request.headers.authorization = `Bearer ${stack.translation.options.apiKey}`;
      if (quoteKey && request.url === '/translate') {
        request.resume();
        response.writeHead(403, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: `Invalid API key: ${quoteKey(request.headers.authorization?.slice('Bearer '.length) ?? '')}` }));
        return;
      }
      stack.translation.listener(request, response);
    });
    ({ gatewayUrl } = await stack.addGateway({
      requestLog: (entry) => logged.push(entry),
      settings: { translationUrl: front.url, translationApiKey: WRONG_KEY, translationCacheTtlSeconds: 0 },
    }));
  });
  afterAll(async () => {
    stack?.translation.configure({ apiKey: TRANSLATION_KEY });
    await stack?.close();
    await front?.close();
  });

  const readiness = async () => {
    const text = await (await fetch(`${baseOf(gatewayUrl)}/readiness`)).text();
    expect(text).not.toContain(WRONG_KEY);
    return JSON.parse(text);
  };
  const translate = async (text: string) => {
    const response = await fetch(gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'deploy-check/1.0', 'x-forwarded-for': '203.0.113.7' },
      body: JSON.stringify({ query: TRANSLATE(text) }),
    });
    return { status: response.status, text: await response.text() };
  };

  it('shows "refused the key" in /readiness before any call is refused, and once a call is, until a call succeeds again', async () => {
    // The language list needs no key, but the check asks where the key is checked (a detection of no text).
    expect(await readiness()).toEqual({ status: 'degraded', services: { problems: 'ok', translation: 'refused the key (HTTP 403)' }, standIns: false, schema: expect.objectContaining({ source: 'live', lastCheck: 'ok' }) });

    const refused = await translate('Print the answer.');
    expect(JSON.parse(refused.text).errors[0].extensions).toMatchObject({ code: 'UPSTREAM_AUTH_REFUSED', service: 'translation', status: 403 });
    expect(await readiness()).toEqual({ status: 'degraded', services: { problems: 'ok', translation: 'refused the key (HTTP 403)' }, standIns: false, schema: expect.objectContaining({ source: 'live', lastCheck: 'ok' }) });
    // Still so on the next probe: a state, not one answer.
    expect((await readiness()).services.translation).toBe('refused the key (HTTP 403)');

    // The service now takes the gateway's key (rotated on its side): the next call succeeds and clears it.
    stack.translation.configure({ apiKey: WRONG_KEY });
    try {
      const served = await translate('Read the input.');
      expect(JSON.parse(served.text).errors).toBeUndefined();
      // Once the last check's result (kept a moment for storms of probes) gives way to a new one.
      for (let tries = 0; tries < 50 && (await readiness()).status !== 'ready'; tries += 1) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await readiness()).toEqual({ status: 'ready', services: { problems: 'ok', translation: 'ok' }, standIns: false, schema: expect.objectContaining({ source: 'live', lastCheck: 'ok' }) });
    } finally {
      stack.translation.configure({ apiKey: TRANSLATION_KEY });
    }
  });

  it("logs the error's code and the service's own words, which the client never gets, with method, path, client and process", async () => {
    logged.length = 0;
    const refused = await translate('Count the pairs.');
    expect(refused.text).not.toContain('Invalid API key');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      operation: 'Translate',
      outcome: 'error',
      errors: 1,
      errorCodes: ['UPSTREAM_AUTH_REFUSED'],
      upstreamErrors: [{ service: 'translation', code: 'UPSTREAM_AUTH_REFUSED', status: 403, cause: 'Invalid API key' }],
      method: 'POST',
      path: '/graphql',
      forwardedFor: '203.0.113.7',
      userAgent: 'deploy-check/1.0',
      pid: process.pid,
    });
  });

  it('never logs the key, even when the service quotes it back', async () => {
    quoteKey = (key) => key;
    logged.length = 0;
    try {
      const refused = await translate('Sort the list.');
      expect(refused.text).not.toContain(WRONG_KEY);
    } finally {
      quoteKey = undefined;
    }
    expect(logged[0].upstreamErrors).toEqual([{ service: 'translation', code: 'UPSTREAM_AUTH_REFUSED', status: 403, cause: 'Invalid API key: [redacted]' }]);
    expect(JSON.stringify(logged)).not.toContain(WRONG_KEY);
  });

  const base64 = (text: string) => Buffer.from(text).toString('base64');
  const quotings: [string, (key: string) => string, string][] = [
    ['base64', base64, base64(WRONG_KEY)],
    ['URL-safe base64', (key) => Buffer.from(key).toString('base64url'), Buffer.from(WRONG_KEY).toString('base64url')],
    ['URL-encoded', (key) => encodeURIComponent(key), encodeURIComponent(WRONG_KEY)],
    ['as a Basic header', (key) => `Basic ${base64(`gateway:${key}`)}`, base64(`gateway:${WRONG_KEY}`).slice(12, -4)],
    ['base64 inside a JSON blob', (key) => base64(JSON.stringify({ api_key: key })), base64(JSON.stringify({ api_key: WRONG_KEY })).slice(16, -8)],
  ];
  for (const [how, quote, leak] of quotings) {
    it(`never logs the key quoted back ${how}`, async () => {
      quoteKey = quote;
      logged.length = 0;
      try {
        expect((await translate(`Sort the list ${how}.`)).text).not.toContain(leak);
      } finally {
        quoteKey = undefined;
      }
      expect(logged[0].upstreamErrors?.[0].cause).toContain('[redacted]');
      expect(JSON.stringify(logged)).not.toContain(leak);
    });
  }
});

describe('watchKeyRefusals', () => {
  it('keeps a refusal of either service until a call to that service gets a 2xx; other failures change nothing', () => {
    const refusals = watchKeyRefusals();
    const call = (service: 'problems' | 'translation', status: string) => {
      const end = refusals.observer.upstreamCall!({ service, method: 'POST', addHeaders: {} });
      if (end) end({ status, durationMs: 1 });
    };
    call('problems', '401');
    call('translation', '403');
    expect([refusals.stateOf('problems'), refusals.stateOf('translation')]).toEqual(['refused the key (HTTP 401)', 'refused the key (HTTP 403)']);
    for (const status of ['503', '429', 'timeout', 'network']) call('problems', status);
    call('translation', '200');
    expect([refusals.stateOf('problems'), refusals.stateOf('translation')]).toEqual(['refused the key (HTTP 401)', undefined]);
    call('problems', '204');
    expect(refusals.stateOf('problems')).toBeUndefined();
  });
});

describe('upstream causes in the request log', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("names the failing service and code when it cannot be reached, and in production too the client gets only the gateway's words", async () => {
    const logged: RequestLogEntry[] = [];
    const other = await stack.addGateway({
      requestLog: (entry) => logged.push(entry),
      settings: { production: true, problemsUrl: 'http://127.0.0.1:9', translationApiKey: WRONG_KEY, translationCacheTtlSeconds: 0, upstreamRetries: 0 },
    });
    const down = await other.query(/* GraphQL */ `query One { problem(id: "p1001") { title } }`);
    expect(down.errors?.[0].extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', service: 'problems' });
    const refused = await other.query(TRANSLATE('Find the sum.'));
    expect(refused.errors?.[0].message).toBe("The translation service refused the gateway's API key for it (HTTP 403).");
    expect(refused.text).not.toContain('Invalid API key');
    expect(logged.map(({ operation, errorCodes, upstreamErrors }) => ({ operation, errorCodes, upstreamErrors }))).toMatchObject([
      // Mesh's delegation copies this error without its cause (the network's code), so the cause is not asserted.
      { operation: 'One', errorCodes: ['UPSTREAM_UNAVAILABLE'], upstreamErrors: [{ service: 'problems', code: 'UPSTREAM_UNAVAILABLE' }] },
      {
        operation: 'Translate',
        errorCodes: ['UPSTREAM_AUTH_REFUSED'],
        upstreamErrors: [{ service: 'translation', code: 'UPSTREAM_AUTH_REFUSED', status: 403, cause: 'Invalid API key' }],
      },
    ]);
  });
});
