import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Language, TranslationContext } from '../../src/gateway/translation/translation-client.ts';
import { createTranslationRuntime } from '../../src/gateway/translation/translation-runtime.ts';

/**
 * How the runtime keeps the language list it maps `to` and `from` with: in-process, over a fake
 * in-context SDK that serves GET /languages and counts its calls.
 */
describe('the language list behind language arguments', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  function fakeService(codes: string[]) {
    const service = { codes, calls: 0, fail: false };
    const requestContext = (): TranslationContext => ({
      Translation: {
        Query: {
          TranslationApi_languages: async () => {
            service.calls += 1;
            if (service.fail) throw new Error('down');
            return service.codes.map((code): Language => ({ code, name: code, targets: service.codes.filter((other) => other !== code) }));
          },
        },
      },
    });
    return { service, requestContext };
  }

  const runtime = () => createTranslationRuntime({ batchSize: 10, concurrency: 1, maxTextLength: 100 });
  let now = 1_000_000;
  const clock = () => vi.spyOn(Date, 'now').mockImplementation(() => now);

  it('fetches the list once for many requests, and serves a language added since within a minute', async () => {
    clock();
    const { service, requestContext } = fakeService(['en', 'es']);
    const translation = runtime();
    expect(await translation.resolveLanguages(requestContext(), { to: 'ES', from: 'EN' })).toEqual({ to: 'es', from: 'en' });
    expect(await translation.resolveLanguages(requestContext(), { to: 'es-419' })).toEqual({ to: 'es', from: null });
    expect(service.calls).toBe(1);

    service.codes = ['de', 'en', 'es'];
    // Within the minute: refused from the list in hand, with no call.
    await expect(translation.resolveLanguages(requestContext(), { to: 'DE' })).rejects.toMatchObject({
      message: 'The translation service does not offer "DE" for `to`; it offers: en, es.',
      extensions: { code: 'UNSUPPORTED_LANGUAGE', argument: 'to' },
    });
    expect(service.calls).toBe(1);
    now += 61_000;
    expect(await translation.resolveLanguages(requestContext(), { to: 'DE' })).toEqual({ to: 'de', from: null });
    expect(service.calls).toBe(2);
  });

  it('throws a refusal once per request; the other fields of that request get null', async () => {
    const { requestContext } = fakeService(['en', 'es']);
    const translation = runtime();
    const context = requestContext();
    await expect(translation.resolveLanguages(context, { to: 'xx' })).rejects.toMatchObject({ extensions: { code: 'UNSUPPORTED_LANGUAGE' } });
    expect(await translation.resolveLanguages(context, { to: 'xx' })).toBeNull();
    await expect(translation.resolveLanguages(requestContext(), { to: 'xx' })).rejects.toMatchObject({ extensions: { code: 'UNSUPPORTED_LANGUAGE' } });
  });

  it('sends the likely spelling while the list cannot be had, and does not ask again for 30 s', async () => {
    clock();
    const { service, requestContext } = fakeService(['en', 'pt']);
    service.fail = true;
    const translation = runtime();
    expect(await translation.resolveLanguages(requestContext(), { to: 'PT_br', from: 'auto' })).toEqual({ to: 'pt-BR', from: null });
    expect(await translation.resolveLanguages(requestContext(), { to: 'pt' })).toEqual({ to: 'pt', from: null });
    expect(service.calls).toBe(1);
    service.fail = false;
    now += 31_000;
    expect(await translation.resolveLanguages(requestContext(), { to: 'PT_br' })).toEqual({ to: 'pt', from: null });
    expect(service.calls).toBe(2);
  });
});
