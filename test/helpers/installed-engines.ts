import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';

/** Every installed package under a node_modules folder with the Node range it declares (`engines.node`), nested copies included. */
export function installedEngines(folder: string): { name: string; range: string }[] {
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

/** The installed packages that refuse a Node `declared` admits (checked at the lowest version of each of its ranges), one line each. */
export function refusingPackages(declared: string, folder: string): string[] {
  const lowest = declared.split('||').map((range) => semver.minVersion(range.trim())!.version);
  const installed = installedEngines(folder);
  return lowest.flatMap((version) =>
    installed.filter(({ range }) => !semver.satisfies(version, range)).map(({ name, range }) => `${name} wants ${range}, engines admits ${version}`),
  );
}
