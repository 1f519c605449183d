import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gatewayOptionDocs, withOptionsTable } from './options-reference.ts';
import { ROOT } from './snippets.ts';

/**
 * The README's table of createGateway options is generated from the TypeScript declaration of
 * GatewayOptions. When an option is added, renamed or documented differently, rewrite the table:
 *
 *   UPDATE_README_OPTIONS=1 npx vitest run test/docs/options-reference.test.ts
 */
describe('the README options reference', () => {
  it('lists every option of createGateway with its declared type, default and doc comment', () => {
    const readmePath = `${ROOT}README.md`;
    const readme = readFileSync(readmePath, 'utf8');
    const expected = withOptionsTable(readme);
    if (process.env.UPDATE_README_OPTIONS === '1' && expected !== readme) writeFileSync(readmePath, expected);
    expect(readme).toBe(expected);
  });

  it('reads options the way the declarations state them (inherited ones included)', () => {
    const options = gatewayOptionDocs();
    const byName = Object.fromEntries(options.map((option) => [option.name, option]));
    expect(byName.graphqlEndpoint).toMatchObject({ type: 'string', defaultValue: "'/graphql'" });
    expect(byName.settings?.type).toBe('SettingsOptions');
    // From the mesh options GatewayOptions extends.
    expect(byName.log).toBeDefined();
    for (const option of options) expect(option.description, option.name).not.toBe('');
  });
});
