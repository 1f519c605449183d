import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { delay } from '../../src/upstreams/translation/faults.ts';
import { createTranslationService, type TranslationService } from '../../src/upstreams/translation/service.ts';

/**
 * Fault modes of the translation stand-in: each field of TranslationFaults, how they combine, and that
 * they switch on and off at runtime without a restart.
 */

const KEY = 'translation-faults-key';

let service: TranslationService;
let server: RunningServer;

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

interface CallOptions {
  body?: unknown;
  /** `false`: no Authorization header. */
  bearer?: string | false;
  signal?: AbortSignal;
}

async function call(path: string, { body, bearer = KEY, signal }: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (bearer !== false) headers.authorization = `Bearer ${bearer}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(server.url + path, {
    method: path === '/languages' ? 'GET' : 'POST',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const SUM = { q: 'the sum', source: 'en', target: 'es' };
const translate = (options: CallOptions = {}) => call('/translate', { body: SUM, ...options });
const languages = (options: CallOptions = {}) => call('/languages', options);
/** Statuses of `count` sequential translations. */
async function statuses(count: number): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < count; i++) seen.push((await translate()).status);
  return seen;
}

/** Resolves once the service has received `count` requests in total (it records them as they arrive). */
async function received(count: number): Promise<void> {
  await vi.waitFor(() => expect(service.stats.requests).toBeGreaterThanOrEqual(count), { interval: 5 });
}

beforeAll(async () => {
  service = createTranslationService({ apiKey: KEY });
  server = await listen(service.listener);
});

afterAll(async () => {
  await server.close();
});

afterEach(() => {
  service.clearFaults();
  service.resetStats();
});

describe('status', () => {
  it('MUST answer every matching request with the status and a JSON error naming it', async () => {
    service.setFaults({ status: 503 });
    for (const answer of [await translate(), await languages(), await call('/detect', { body: { q: 'hola' } })]) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(JSON.parse(answer.text)).toEqual({ error: 'Service Unavailable' });
      expect(answer.headers.get('x-translation-engine')).toBe('glossary-stand-in');
    }
  });

  it('MUST send Retry-After when retryAfter is set, in seconds or as a date', async () => {
    service.setFaults({ status: 429, retryAfter: 7 });
    const seconds = await translate();
    expect(seconds.status).toBe(429);
    expect(seconds.headers.get('retry-after')).toBe('7');
    expect(JSON.parse(seconds.text)).toEqual({ error: 'Too Many Requests' });

    service.setFaults({ status: 503, retryAfter: 'Wed, 21 Oct 2015 07:28:00 GMT' });
    expect((await translate()).headers.get('retry-after')).toBe('Wed, 21 Oct 2015 07:28:00 GMT');
    service.setFaults({ status: 500 });
    expect((await translate()).headers.get('retry-after')).toBeNull();
  });

  it('MUST send body as given: labelled JSON when it parses, text otherwise', async () => {
    service.setFaults({ status: 500, body: '{"error":"model crashed"}' });
    const json = await translate();
    expect(json.status).toBe(500);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(json.text).toBe('{"error":"model crashed"}');

    service.setFaults({ status: 502, body: 'upstream connect error' });
    const text = await translate();
    expect(text.status).toBe(502);
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(text.text).toBe('upstream connect error');
  });

  it('MUST fault before the API key check, so callers with no key or a wrong one see the fault too', async () => {
    service.setFaults({ status: 500 });
    expect((await translate({ bearer: false })).status).toBe(500);
    expect((await translate({ bearer: 'wrong' })).status).toBe(500);
  });

  it('MUST leave 404 for unknown routes and 405 for wrong methods alone', async () => {
    service.setFaults({ status: 500 });
    expect((await call('/nowhere', { body: {} })).status).toBe(404);
    expect((await fetch(`${server.url}/translate`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(405);
  });
});

describe('badBody', () => {
  it('not-json MUST answer 200 with an HTML page', async () => {
    service.setFaults({ badBody: 'not-json' });
    const answer = await translate();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.text).toMatch(/^<!DOCTYPE html>/);
    expect(() => JSON.parse(answer.text)).toThrow();
  });

  it('wrong-shape MUST answer 200 with valid JSON that is not a translation', async () => {
    service.setFaults({ badBody: 'wrong-shape' });
    for (const answer of [await translate(), await languages()]) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(JSON.parse(answer.text)).toEqual({ result: 1 });
    }
  });

  it('short-array MUST return translatedText one item shorter than an array q, and the wrong shape elsewhere', async () => {
    service.setFaults({ badBody: 'short-array' });
    const batch = await call('/translate', { body: { q: ['the sum', 'the tree', 'the graph'], source: 'en', target: 'es' } });
    expect(batch.status).toBe(200);
    expect(JSON.parse(batch.text)).toEqual({ translatedText: ['la suma', 'el árbol'] });
    expect(JSON.parse((await translate()).text)).toEqual({ result: 1 });
    expect(JSON.parse((await languages()).text)).toEqual({ result: 1 });
    expect(service.stats.translatedTexts).toBe(0);
  });

  it('empty MUST answer 200 with no body', async () => {
    service.setFaults({ badBody: 'empty' });
    const answer = await translate();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-length')).toBe('0');
    expect(answer.text).toBe('');
  });

  it('MUST use status when it is set too (an HTML error page with a 502)', async () => {
    service.setFaults({ status: 502, badBody: 'not-json' });
    const answer = await translate();
    expect(answer.status).toBe(502);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
  });
});

describe('latencyMs', () => {
  it('MUST still answer correctly after the delay', async () => {
    service.setFaults({ latencyMs: 50 });
    const answer = await translate();
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ translatedText: 'la suma' });
    expect(service.stats).toMatchObject({ faulted: 1, translatedTexts: 1 });
  });

  it('MUST hold a delayed request while a later, un-faulted one is answered', async () => {
    service.setFaults({ latencyMs: 500, routes: ['POST /translate'] });
    const finished: string[] = [];
    const slow = translate().then((answer) => finished.push(`translate ${answer.status}`));
    await received(1);
    await languages().then((answer) => finished.push(`languages ${answer.status}`));
    await slow;
    expect(finished).toEqual(['languages 200', 'translate 200']);
  });

  it('MUST apply the other faults after the delay', async () => {
    service.setFaults({ latencyMs: 20, status: 504 });
    expect((await translate()).status).toBe(504);
  });

  it('MUST drop a delayed request whose client leaves, and keep serving', async () => {
    service.setFaults({ latencyMs: 60_000 });
    await expect(translate({ signal: AbortSignal.timeout(200) })).rejects.toThrow();
    service.clearFaults();
    expect((await translate()).status).toBe(200);
  });

  it('MUST clear its timer when the response closes early', async () => {
    vi.useFakeTimers();
    try {
      const res = Object.assign(new EventEmitter(), { destroyed: false, writableEnded: false }) as unknown as ServerResponse;
      const waiting = delay(60_000, res);
      expect(vi.getTimerCount()).toBe(1);
      res.emit('close');
      expect(await waiting).toBe(false);
      expect(vi.getTimerCount()).toBe(0);

      const served = delay(10, res);
      vi.advanceTimersByTime(10);
      expect(await served).toBe(true);
      expect(res.listenerCount('close')).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('hang', () => {
  it('MUST never answer, until the client aborts', async () => {
    service.setFaults({ hang: true });
    await expect(translate({ signal: AbortSignal.timeout(200) })).rejects.toThrow();
    expect(service.stats).toMatchObject({ requests: 1, faulted: 1 });
  });

  it('MUST not keep server.close() waiting', async () => {
    const own = createTranslationService();
    own.setFaults({ hang: true });
    const ownServer = await listen(own.listener);
    const pending = fetch(`${ownServer.url}/languages`);
    pending.catch(() => {}); // observed below; keeps the rejection from being reported as unhandled meanwhile
    await vi.waitFor(() => expect(own.stats.faulted).toBe(1), { interval: 5 });
    await ownServer.close();
    await expect(pending).rejects.toThrow();
  });
});

describe('everyNth and failFirst', () => {
  it('everyNth MUST fault every n-th matching request only (1-based)', async () => {
    service.setFaults({ status: 500, everyNth: 3 });
    expect(await statuses(9)).toEqual([200, 200, 500, 200, 200, 500, 200, 200, 500]);
    expect(service.stats.faulted).toBe(3);
  });

  it('failFirst MUST fault the first n matching requests, then serve normally', async () => {
    service.setFaults({ status: 503, retryAfter: 1, failFirst: 2 });
    expect(await statuses(5)).toEqual([503, 503, 200, 200, 200]);
  });

  it('together MUST fault every n-th request, at most failFirst times', async () => {
    service.setFaults({ status: 500, everyNth: 2, failFirst: 2 });
    expect(await statuses(8)).toEqual([200, 500, 200, 500, 200, 200, 200, 200]);
  });

  it('MUST count only requests to the chosen routes', async () => {
    service.setFaults({ status: 500, everyNth: 2, routes: ['POST /translate'] });
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) {
      seen.push((await translate()).status);
      expect((await languages()).status).toBe(200);
    }
    expect(seen).toEqual([200, 500, 200]);
  });

  it('MUST start counting again at every setFaults', async () => {
    service.setFaults({ status: 500, failFirst: 1 });
    expect(await statuses(2)).toEqual([500, 200]);
    service.setFaults({ status: 500, failFirst: 1 });
    expect(await statuses(2)).toEqual([500, 200]);
  });
});

describe('routes', () => {
  it('MUST fault only the listed routes and serve the others', async () => {
    service.setFaults({ status: 500, routes: ['POST /translate', 'POST /detect'] });
    expect((await translate()).status).toBe(500);
    expect((await call('/detect', { body: { q: 'hola' } })).status).toBe(500);
    expect((await languages()).status).toBe(200);
  });

  it('MUST count HEAD as GET', async () => {
    service.setFaults({ status: 500, routes: ['GET /languages'] });
    expect((await fetch(`${server.url}/languages`, { method: 'HEAD', headers: { authorization: `Bearer ${KEY}` } })).status).toBe(500);
  });
});

describe('switching at runtime', () => {
  it('MUST apply new faults from the next request on, without a restart', async () => {
    expect((await translate()).status).toBe(200);
    service.setFaults({ status: 500 });
    expect((await translate()).status).toBe(500);
    service.setFaults({ badBody: 'wrong-shape' });
    expect(JSON.parse((await translate()).text)).toEqual({ result: 1 });
    service.setFaults({ status: 429, retryAfter: 3 });
    expect((await translate()).status).toBe(429);
  });

  it('clearFaults, setFaults(undefined) and setFaults({}) MUST restore normal behaviour', async () => {
    for (const clear of [() => service.clearFaults(), () => service.setFaults(undefined), () => service.setFaults({})]) {
      service.setFaults({ status: 500 });
      expect((await translate()).status).toBe(500);
      clear();
      const answer = await translate();
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text)).toEqual({ translatedText: 'la suma' });
      expect((await translate({ bearer: false })).status).toBe(403);
    }
  });

  it('MUST count faulted requests in stats, and reset them with resetStats', async () => {
    service.setFaults({ status: 500, everyNth: 2 });
    await statuses(4);
    expect(service.stats).toMatchObject({ requests: 4, faulted: 2, translatedTexts: 2, byRoute: { 'POST /translate': 4 } });
    expect(service.stats.lastRequests).toHaveLength(4);
    service.resetStats();
    expect(service.stats.faulted).toBe(0);
  });
});

describe('validation', () => {
  const invalid: Array<[string, object]> = [
    ['a negative latency', { latencyMs: -1 }],
    ['a status out of range', { status: 99 }],
    ['a fractional everyNth', { status: 500, everyNth: 1.5 }],
    ['failFirst 0', { status: 500, failFirst: 0 }],
    ['an unknown route', { status: 500, routes: ['GET /translate'] }],
    ['an empty routes list', { status: 500, routes: [] }],
    ['retryAfter without status', { badBody: 'empty', retryAfter: 1 }],
    ['body without status', { body: 'x', latencyMs: 1 }],
    ['body with badBody', { status: 500, body: 'x', badBody: 'empty' }],
    ['an unknown badBody', { badBody: 'truncated' }],
    ['hang with status', { hang: true, status: 500 }],
    ['a schedule with no fault', { everyNth: 2 }],
    ['a misspelt field', { status: 500, everyNTh: 2 }],
  ];
  it.each(invalid)('MUST reject %s with a TypeError and keep the faults in force', async (_, faults) => {
    service.setFaults({ status: 500 });
    expect(() => service.setFaults(faults as never)).toThrow(TypeError);
    expect((await translate()).status).toBe(500);
  });
});
