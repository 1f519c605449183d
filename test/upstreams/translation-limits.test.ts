import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { createTranslationService, type TranslationService } from '../../src/upstreams/translation/service.ts';

/** The stand-in's LibreTranslate limits: `--batch-limit`, `--char-limit`, and GET /frontend/settings. */
describe('translation stand-in limits, as LibreTranslate has them', () => {
  let service: TranslationService;
  let server: RunningServer;
  const post = async (body: unknown) => {
    const response = await fetch(`${server.url}/translate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    service = createTranslationService({ batchLimit: 3, charLimit: 50 });
    server = await listen(service.listener);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('MUST refuse more texts than batchLimit with LibreTranslate\'s 400 message', async () => {
    const result = await post({ q: ['a', 'b', 'c', 'd'], source: 'en', target: 'es' });
    expect(result).toEqual({ status: 400, body: { error: 'Invalid request: request (4) exceeds text limit (3)' } });
    expect((await post({ q: ['a', 'b', 'c'], source: 'en', target: 'es' })).status).toBe(200);
  });

  it('MUST refuse more characters than charLimit, summed over the batch, with the same message', async () => {
    const result = await post({ q: ['x'.repeat(30), 'y'.repeat(30)], source: 'en', target: 'es' });
    expect(result).toEqual({ status: 400, body: { error: 'Invalid request: request (60) exceeds text limit (50)' } });
    expect((await post({ q: 'z'.repeat(51), source: 'en', target: 'es' })).body).toEqual({ error: 'Invalid request: request (51) exceeds text limit (50)' });
  });

  it('MUST publish charLimit at GET /frontend/settings (-1 when off), and answer 404 when told to have none', async () => {
    const settings = await fetch(`${server.url}/frontend/settings`).then((response) => response.json());
    expect(settings).toMatchObject({ charLimit: 50 });
    service.configure({ charLimit: undefined });
    expect(await fetch(`${server.url}/frontend/settings`).then((response) => response.json())).toMatchObject({ charLimit: -1 });
    service.configure({ frontendSettings: false });
    expect((await fetch(`${server.url}/frontend/settings`)).status).toBe(404);
    service.configure({ frontendSettings: true, charLimit: 50 });
  });

  it('MUST have no limits by default', () => {
    const plain = createTranslationService();
    expect(plain.options.batchLimit).toBeUndefined();
    expect(plain.options.charLimit).toBeUndefined();
  });
});
