import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.ts$/.test(file))
    .map((file) => join(folder, file));
}

/** Every relative module a file imports (static, dynamic and re-exports), as a path from the project root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1]);
  return specifiers.map((specifier) => relative(ROOT, resolve(ROOT, dirname(file), specifier)));
}

/**
 * The gateway never depends on the stand-ins, and the stand-ins never on the gateway: either can be
 * read, changed or shipped without the other. Only the entries under src/cli/ know both.
 */
describe('layout', () => {
  it.each([
    ['src/gateway', 'src/upstreams'],
    ['src/upstreams', 'src/gateway'],
    ['src/upstreams', 'src/cli'],
    ['src/gateway', 'src/cli'],
  ])('nothing under %s imports from %s', (from, forbidden) => {
    const offending = sourceFiles(from).flatMap((file) =>
      importsOf(file)
        .filter((target) => target === forbidden || target.startsWith(`${forbidden}/`))
        .map((target) => `${file} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it('finds the imports it checks (the check itself works)', () => {
    expect(importsOf('src/cli/start.ts')).toContain('src/upstreams/stand-ins.ts');
    expect(importsOf('src/cli/start.ts')).toContain('src/gateway/create-gateway.ts');
  });

  it('library code neither reads nor writes process.env', () => {
    const readers = [...sourceFiles('src/gateway'), 'src/index.ts'].filter((file) => /process\.env/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(readers).toEqual([]);
  });
});
