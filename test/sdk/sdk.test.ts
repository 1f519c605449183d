import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createGatewaySdk, GatewaySdkError, type ProblemsInLanguageQuery } from 'problems-translation-gateway/sdk';
import { GENERATED_FILE, generateSdkSource } from '../../src/sdk/generate.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

describe('the typed SDK', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ settings: { gatewayApiKeys: ['sdk-key'] } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('is generated from the current schema and operations (run `npm run sdk:generate` if not)', async () => {
    expect(await generateSdkSource(stack.gateway.schema)).toBe(await readFile(GENERATED_FILE, 'utf8'));
  });

  it('calls the link operation with typed variables and result', async () => {
    const sdk = createGatewaySdk({ url: stack.gatewayUrl, apiKey: 'sdk-key' });
    const result = await sdk.ProblemsInLanguage({ to: 'es', first: 2 });
    // Checked by the TypeScript compiler (`tsc --noEmit` in `npm test`), not at run time.
    expectTypeOf(result).toEqualTypeOf<ProblemsInLanguageQuery>();
    expectTypeOf(sdk.ProblemsInLanguage).parameter(0).toMatchTypeOf<{ to: string; first?: number | null }>();
    const nodes = result.problems?.nodes ?? [];
    expect(nodes).toHaveLength(2);
    const first = nodes[0]!;
    expectTypeOf(first.translation).toEqualTypeOf<{ __typename?: 'ProblemTranslation'; language: string; title: string; statement: string } | null | undefined>();
    expect(first.translation?.language).toBe('es');
    expect(first.translation?.title).not.toBe(first.title);
  });

  it('raises GatewaySdkError with the partial data when a field fails', async () => {
    const sdk = createGatewaySdk({ url: stack.gatewayUrl, apiKey: 'sdk-key' });
    const failure = await sdk.TranslateText({ text: 'Print the sum.', to: 'not a code' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GatewaySdkError);
    expect((failure as GatewaySdkError).errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'to' });
    expect((failure as GatewaySdkError).data).toEqual({ translation: { translate: null } });
  });

  it('raises GatewaySdkError for a refused key', async () => {
    const sdk = createGatewaySdk({ url: stack.gatewayUrl, apiKey: 'wrong' });
    const failure = await sdk.TranslationLanguages().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GatewaySdkError);
    expect((failure as GatewaySdkError).status).toBe(401);
  });
});
