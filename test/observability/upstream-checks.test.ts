import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSLATION_KEY, startStack, type Stack } from '../helpers/start-stack.ts';
import { baseOf } from './helpers.ts';

/** What /readiness and the start-up check make of upstream URLs and keys as operators write them. */
describe('upstream checks: credentials in URLs, a wrong translation key', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
    // As a stock LibreTranslate: /languages answers whatever the key, /translate and /detect check it.
    stack.translation.configure({ languagesWithoutKey: true });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const readiness = async (gatewayUrl: string) => (await (await fetch(`${baseOf(gatewayUrl)}/readiness`)).json()) as { status: string; services: Record<string, string> };
  const upstreamUp = async (gatewayUrl: string) => /gateway_upstream_up\{service="translation"\} (\d)/.exec(await (await fetch(`${baseOf(gatewayUrl)}/metrics`)).text())?.[1];
  const withUserInfo = (url: string) => url.replace('http://', 'http://gateway:s3cret@');

  it('MUST say ready when the upstream URLs carry user:pass@, as the calls themselves work', async () => {
    const { problemsUrl, translationUrl } = stack.upstreamSettings;
    const other = await stack.addGateway({ settings: { problemsUrl: withUserInfo(problemsUrl!), translationUrl: withUserInfo(translationUrl!) } });
    const translated = await other.query(/* GraphQL */ `{ problem(id: "p1001") { title translation(to: "es") { title } } }`);
    expect(translated.errors).toBeUndefined();
    expect(await readiness(other.gatewayUrl)).toMatchObject({ status: 'ready', services: { problems: 'ok', translation: 'ok' } });
  });

  it('MUST see a wrong TRANSLATION_API_KEY at start (one line, gateway_upstream_up 0) and in /readiness, with no translation made', async () => {
    const lines: { line: string; level?: string }[] = [];
    stack.translation.resetStats();
    const other = await stack.addGateway({ settings: { translationApiKey: 'wrong-translation-key' }, log: (line, level) => void lines.push({ line, level }) });
    expect(lines.filter(({ line }) => line.startsWith('translation:'))).toEqual([
      { line: 'translation: the service refused TRANSLATION_API_KEY (HTTP 403); every translation fails until it is fixed, and /readiness says degraded', level: 'error' },
    ]);
    expect(await upstreamUp(other.gatewayUrl)).toBe('0');
    expect(await readiness(other.gatewayUrl)).toMatchObject({ status: 'degraded', services: { translation: 'refused the key (HTTP 403)' } });
    expect(await upstreamUp(other.gatewayUrl)).toBe('0');
    expect(stack.translation.stats.byRoute['POST /translate'] ?? 0).toBe(0);
    expect(stack.translation.stats.translatedTexts).toBe(0);
    for (const { line } of lines) expect(line).not.toContain('wrong-translation-key');
  });

  it('MUST say nothing at start and ready when the key is right, and the check translates nothing', async () => {
    const lines: string[] = [];
    stack.translation.resetStats();
    const other = await stack.addGateway({ settings: { translationApiKey: TRANSLATION_KEY }, log: (line) => void lines.push(line) });
    expect(lines.filter((line) => line.startsWith('translation:'))).toEqual([]);
    expect(await readiness(other.gatewayUrl)).toMatchObject({ status: 'ready', services: { translation: 'ok' } });
    expect(stack.translation.stats.translatedTexts).toBe(0);
  });
});
