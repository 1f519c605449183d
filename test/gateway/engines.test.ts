import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every installed package with the Node range it declares (`engines.node`), nested copies included. */
function installedEngines(folder = join(ROOT, 'node_modules')): { name: string; range: string }[] {
  return readdirSync(folder).flatMap((entry) => {
    if (entry.startsWith('.')) return [];
    const path = join(folder, entry);
    if (entry.startsWith('@')) return installedEngines(path);
    const manifest = join(path, 'package.json');
    if (!existsSync(manifest)) return [];
    const { name, version, engines } = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; version: string; engines?: { node?: string } };
    const own = engines?.node ? [{ name: `${name}@${version}`, range: engines.node }] : [];
    const nested = existsSync(join(path, 'node_modules')) ? installedEngines(join(path, 'node_modules')) : [];
    return [...own, ...nested];
  });
}

/**
 * package.json's `engines` is true: every Node it admits is admitted by every installed package
 * (checked at the lowest version of each range it names), and the Node running the tests is one of them.
 */
describe('engines', () => {
  const declared = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

  it('admits the Node that runs the tests', () => {
    expect(semver.satisfies(process.version, declared)).toBe(true);
  });

  it('admits no Node that an installed package refuses', () => {
    const lowest = declared.split('||').map((range) => semver.minVersion(range.trim())!.version);
    const refusing = lowest.flatMap((version) =>
      installedEngines()
        .filter(({ range }) => !semver.satisfies(version, range))
        .map(({ name, range }) => `${name} wants ${range}, engines admits ${version}`),
    );
    expect(refusing).toEqual([]);
  });
});
