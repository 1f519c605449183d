import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Where `name` is installed under `folder`, nested copies included, with each copy's version. */
function installedCopies(name: string, folder = join(ROOT, 'node_modules')): { path: string; version: string }[] {
  return readdirSync(folder).flatMap((entry) => {
    if (entry.startsWith('.')) return [];
    const path = join(folder, entry);
    if (entry.startsWith('@')) return readdirSync(path).flatMap((scoped) => copiesIn(`${entry}/${scoped}`, join(path, scoped), name));
    return copiesIn(entry, path, name);
  });
}

function copiesIn(packageName: string, path: string, name: string): { path: string; version: string }[] {
  const manifest = join(path, 'package.json');
  const own = packageName === name && existsSync(manifest) ? [{ path, version: (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version }] : [];
  const nested = existsSync(join(path, 'node_modules')) ? installedCopies(name, join(path, 'node_modules')) : [];
  return [...own, ...nested];
}

/**
 * Every installed copy of a package is loaded and compiled on its own at start-up, and
 * @graphql-tools/utils is imported by Mesh and by every @graphql-tools package, so nested copies of it
 * are a large share of module loading (docs/performance.md, "Start-up"). package.json's `overrides`
 * keep it to the one version the gateway names.
 */
describe('the installed dependency tree', () => {
  it('holds one copy of @graphql-tools/utils, the version package.json names', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const copies = installedCopies('@graphql-tools/utils');
    expect(copies.map(({ path, version }) => `${path.slice(ROOT.length)}@${version}`)).toEqual([
      `node_modules/@graphql-tools/utils@${manifest.dependencies['@graphql-tools/utils']}`,
    ]);
  });
});
