import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Whether this code runs compiled (`dist/src/…js`, after `npm run build`) or from its TypeScript
 * sources under tsx or vitest. Both read the project's own files (.meshrc.yaml, sources/, the .graphql
 * files under src/) from the package root.
 */
export const COMPILED = import.meta.url.endsWith('.js');

const here = dirname(fileURLToPath(import.meta.url));

/** The package root: where .meshrc.yaml and the paths it names live. */
export const PROJECT_ROOT = COMPILED ? resolve(here, '../../..') : resolve(here, '../..');

/**
 * A module named in .meshrc.yaml (`./src/gateway/links/problem-translation.ts`) as this build can
 * import it: the source itself, or its compiled twin under dist/.
 */
export function projectModuleUrl(id: string, baseDir = PROJECT_ROOT): string {
  const compiledId = COMPILED && /\.ts$/.test(id) && baseDir === PROJECT_ROOT ? `dist/${id.replace(/^\.\//, '').replace(/\.ts$/, '.js')}` : id;
  return pathToFileURL(resolve(baseDir, compiledId)).href;
}
