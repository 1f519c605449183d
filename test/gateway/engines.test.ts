import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { refusingPackages } from '../helpers/installed-engines.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * package.json's `engines` is true: every Node it admits is admitted by every installed package
 * (checked at the lowest version of each range it names), and the Node running the tests is one of them.
 * (test/examples/compiled-package.test.ts checks the same of an app's install, which gets no overrides.)
 */
describe('engines', () => {
  const declared = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

  it('admits the Node that runs the tests', () => {
    expect(semver.satisfies(process.version, declared)).toBe(true);
  });

  it('admits no Node that an installed package refuses', () => {
    expect(refusingPackages(declared, join(ROOT, 'node_modules'))).toEqual([]);
  });
});
