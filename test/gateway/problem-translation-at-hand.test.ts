import { describe, expect, it } from 'vitest';
import { resolvers } from '../../src/gateway/links/problem-translation.ts';
import type { Language, TranslationContext } from '../../src/gateway/translation/translation-client.ts';
import { createTranslationRuntime, useTranslationRuntime } from '../../src/gateway/translation/translation-runtime.ts';
import { setOperationLanguage } from '../../src/gateway/translation/in-context.ts';

/**
 * Problem.translation on a warm page: answered at once, a value and not a promise, when its
 * language is decided without waiting and its translation is in memory; a promise only while
 * something is still to come (the language list, a translation to make). Over a fake in-context
 * SDK serving GET /languages, the runtime put on the context as the gateway puts it.
 */
describe('Problem.translation at hand', () => {
  const problem = { id: 'p1', title: 'Sum', statement: 'Print the sum of two numbers.' };
  const spanish = { title: 'Suma', statement: 'Imprime la suma de dos números.', provenance: { kind: 'MACHINE' as const, sourceLanguage: 'en', madeAt: null, stale: false, partial: false, translatedShare: 1 } };

  async function setUp(defaultLanguages: readonly string[] = []) {
    const runtime = createTranslationRuntime({ batchSize: 10, concurrency: 1, maxTextLength: 1000, defaultLanguages });
    const codes = ['en', 'es', 'fr'];
    const context: TranslationContext = {
      Translation: {
        Query: { TranslationApi_languages: async () => codes.map((code): Language => ({ code, name: code, targets: codes.filter((other) => other !== code) })) },
      },
    };
    const plugin = useTranslationRuntime(runtime) as { onContextBuilding: (event: { context: object; extendContext: (more: object) => void }) => unknown };
    await plugin.onContextBuilding({ context, extendContext: (more) => Object.assign(context, more) });
    runtime.assembled.keep({ id: problem.id, to: 'es', from: null, title: problem.title, statement: problem.statement }, spanish);
    return { runtime, context };
  }
  const resolve = (context: object, args: { to?: string; from?: string | null }) => resolvers.Problem.translation.resolve(problem, args, context as TranslationContext);

  it('waits for the language list the first time, then answers a kept translation at once', async () => {
    const { context } = await setUp();
    const first = resolve(context, { to: 'ES' });
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toEqual({ language: 'es', ...spanish });
    const again = resolve(context, { to: 'ES' });
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toEqual({ language: 'es', ...spanish });
    // The same frozen value every time, which the shaper writes as the text it wrote the first time.
    expect(resolve(context, { to: 'es' })).toBe(again);
    expect(Object.isFrozen(again)).toBe(true);
  });

  it('answers the original at once when `from` is the language asked for, list or not', async () => {
    const { context } = await setUp();
    expect(resolve(context, { to: 'en', from: 'en' })).toMatchObject({ language: 'en', title: 'Sum', provenance: { kind: 'ORIGINAL' } });
  });

  it('leaves what is not in memory, and a refused language, to the decision that waits', async () => {
    const { runtime, context } = await setUp();
    await runtime.languages(context);
    // No French translation kept: one is to be made (and fails here: the fake service translates nothing).
    const french = resolve(context, { to: 'fr' });
    expect(french).toBeInstanceOf(Promise);
    await (french as Promise<unknown>).catch(() => undefined);
    const refused = resolve(context, { to: 'xx' });
    expect(refused).toBeInstanceOf(Promise);
    await expect(refused).rejects.toMatchObject({ extensions: { code: 'UNSUPPORTED_LANGUAGE' } });
  });

  it('answers a link without `to:` at once too, once the list is held: by the default languages and by `@inContext`', async () => {
    const { context } = await setUp(['es']);
    const first = resolve(context, {});
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toEqual({ language: 'es', ...spanish });
    const again = resolve(context, {});
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toEqual({ language: 'es', ...spanish });
    // The operation's language before the defaults; nothing kept in French, so that one waits.
    setOperationLanguage(context, 'fr');
    const french = resolve(context, {});
    expect(french).toBeInstanceOf(Promise);
    // Awaited to its end (the fake service translates nothing): left alone, its failure would be
    // an unhandled rejection in whatever file the worker runs next.
    await (french as Promise<unknown>).catch(() => undefined);
    const { context: inSpanish } = await setUp();
    setOperationLanguage(inSpanish, 'es');
    await resolve(inSpanish, {});
    expect(resolve(inSpanish, {})).toEqual({ language: 'es', ...spanish });
  });

  it('answers the original at once, marked as the fallback, when no language the reader wants can be served', async () => {
    const { runtime, context } = await setUp(['tlh']);
    await runtime.languages(context);
    expect(resolve(context, {})).toMatchObject({ language: 'und', title: 'Sum', provenance: { kind: 'ORIGINAL' } });
  });

  it('refuses a malformed `to:` at once, as the field error', async () => {
    const { context } = await setUp();
    expect(() => resolve(context, { to: '' })).toThrow('Argument "to" must be a language tag such as "es"');
  });
});
