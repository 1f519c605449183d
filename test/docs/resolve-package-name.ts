/**
 * Loaded with `node --import` before a README snippet: maps the package's name to its sources, as
 * tsconfig `paths` and vitest's aliases do inside this repository, so that the snippet runs on Node's
 * own type stripping (as `npm start` runs src/) with no compiler in front.
 */
import * as nodeModule from 'node:module';

type Resolve = (specifier: string, context: object, nextResolve: (specifier: string, context: object) => unknown) => unknown;
// Node 22.15 and later; @types/node stays at the oldest Node `engines` admits (programArguments checks for it).
const { registerHooks } = nodeModule as unknown as { registerHooks(hooks: { resolve: Resolve }): void };

const SOURCES: Record<string, string> = {
  'problems-translation-gateway': new URL('../../src/index.ts', import.meta.url).href,
  'problems-translation-gateway/sdk': new URL('../../src/sdk/index.ts', import.meta.url).href,
};

registerHooks({
  resolve: (specifier, context, nextResolve) => nextResolve(SOURCES[specifier] ?? specifier, context),
});
