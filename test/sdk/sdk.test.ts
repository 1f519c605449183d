import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '@graphql-codegen/cli';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createGatewaySdk, GatewaySdkError, type ProblemsInLanguageQuery } from 'problems-translation-gateway/sdk';
import codegenConfig from '../../codegen.ts';
import { SCHEMA_FILE, schemaFileSource } from '../../src/cli/write-schema.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the typed SDK', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ settings: { gatewayApiKeys: ['sdk-key'] } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('ships schema.graphql identical to the schema served (run `npm run schema:write` if not)', async () => {
    expect(await readFile(SCHEMA_FILE, 'utf8')).toBe(schemaFileSource(stack.gateway.schema));
  });

  it('has every generated file as codegen.ts makes it from schema.graphql (run `npm run codegen` if not)', async () => {
    const outputs = (await generate({ ...codegenConfig, silent: true }, false)) as { filename: string; content: string }[];
    expect(outputs.map((output) => output.filename).sort()).toEqual([
      'src/sdk/generated.ts',
      'src/sdk/gql/gql.ts',
      'src/sdk/gql/graphql.ts',
      'src/sdk/gql/index.ts',
      'src/sdk/gql/persisted-documents.json',
    ]);
    for (const output of outputs) expect(output.content, output.filename).toBe(await readFile(join(ROOT, output.filename), 'utf8'));
  });

  it('calls the link operation with typed variables and result', async () => {
    const sdk = createGatewaySdk({ url: stack.gatewayUrl, apiKey: 'sdk-key' });
    const result = await sdk.ProblemsInLanguage({ to: 'es', first: 2 });
    // Checked by the TypeScript compiler (`tsc --noEmit` in `npm test`), not at run time.
    expectTypeOf(result).toEqualTypeOf<ProblemsInLanguageQuery>();
    // `to` takes one language or a list of them, most wanted first.
    expectTypeOf(sdk.ProblemsInLanguage).parameter(0).toMatchTypeOf<{ to: string | string[]; first?: number | null }>();
    const nodes = result.problems?.nodes ?? [];
    expect(nodes).toHaveLength(2);
    const first = nodes[0]!;
    expectTypeOf(first.translation).toEqualTypeOf<{ language: string; title: string; statement: string } | null>();
    expect(first.translation?.language).toBe('es');
    expect(first.translation?.title).not.toBe(first.title);
  });

  it('raises GatewaySdkError with the partial data when a field fails', async () => {
    const sdk = createGatewaySdk({ url: stack.gatewayUrl, apiKey: 'sdk-key' });
    // A language the service does not offer fails the field; the rest of the answer stands.
    const failure = await sdk.TranslateText({ text: 'Print the sum.', to: 'zz' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GatewaySdkError);
    expect((failure as GatewaySdkError).errors[0].extensions).toMatchObject({ code: 'UNSUPPORTED_LANGUAGE', argument: 'to' });
    expect((failure as GatewaySdkError).data).toEqual({ translation: { translate: null } });
  });

  it('raises GatewaySdkError for a refused key', async () => {
    const sdk = createGatewaySdk({ url: stack.gatewayUrl, apiKey: 'wrong' });
    const failure = await sdk.TranslationLanguages().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GatewaySdkError);
    expect((failure as GatewaySdkError).status).toBe(401);
  });
});
