import { readFileSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { gatewayOptionDocs, optionsTable, settingsTables, withOptionsTable, withSettingsTables, type OptionDoc } from './options-reference.ts';
import { ROOT } from './snippets.ts';

/** The document (README.md by default) is as `regenerate` makes it; with `variable`=1 in the environment, it is rewritten so first. */
function expectReadmeAsGenerated(regenerate: (text: string) => string, variable: string, path = 'README.md'): void {
  const fullPath = `${ROOT}${path}`;
  const text = readFileSync(fullPath, 'utf8');
  const expected = regenerate(text);
  if (process.env[variable] === '1' && expected !== text) writeFileSync(fullPath, expected);
  expect(text).toBe(expected);
}

/**
 * The README's table of createGateway options is generated from the TypeScript declaration of
 * GatewayOptions. When an option is added, renamed or documented differently, rewrite the table:
 *
 *   UPDATE_README_OPTIONS=1 npx vitest run test/docs/options-reference.test.ts
 */
describe('the README options reference', () => {
  // Read once for both tests: a TypeScript program over create-gateway.ts and all it imports (Mesh's
  // declarations among them) is most of this file's time.
  let options: OptionDoc[];
  beforeAll(() => {
    options = gatewayOptionDocs();
  });

  it('lists every option of createGateway with its declared type, default and doc comment', () => {
    expectReadmeAsGenerated((readme) => withOptionsTable(readme, optionsTable(options)), 'UPDATE_README_OPTIONS');
  });

  it('reads options the way the declarations state them (inherited ones included)', () => {
    const byName = Object.fromEntries(options.map((option) => [option.name, option]));
    expect(byName.graphqlEndpoint).toMatchObject({ type: 'string', defaultValue: "'/graphql'" });
    expect(byName.settings?.type).toBe('SettingsOptions');
    // From the mesh options GatewayOptions extends.
    expect(byName.log).toBeDefined();
    for (const option of options) expect(option.description, option.name).not.toBe('');
  });
});

/**
 * The configuration reference's tables (docs/configuration.md) are generated from the settings
 * table, one per group. When a setting is added or documented differently, rewrite them:
 *
 *   UPDATE_SETTINGS_DOC=1 npx vitest run test/docs/options-reference.test.ts
 */
describe('the configuration reference tables', () => {
  it('list every setting of the table with its variable, option, doc, kind and default, grouped as the table is', () => {
    expectReadmeAsGenerated(withSettingsTables, 'UPDATE_SETTINGS_DOC', 'docs/configuration.md');
  });

  it('show a default as the table holds it, and what unset means for a setting without one', () => {
    const tables = settingsTables();
    expect(tables).toContain('| `PORT` | `port` | port the gateway listens on | port, 0 to 65535 | `4000` |');
    expect(tables).toContain('| `REDIS_TIMEOUT_MS` | `redisTimeoutMs` | budget of one Redis operation; past it a read is a miss and the rate limit counts in process | whole number, from 1 to 150 | `100` |');
    expect(tables).toContain('| `UPSTREAM_BREAKER_FAILURES` | `upstreamBreakerFailures` |');
    expect(tables).toContain('| `NODE_ENV` | `production` |');
    expect(tables).toMatch(/\| `REDIS_URL` \| `redisUrl` \| .* \| unset: in-process \|/);
    expect(tables).toMatch(/\*\*Redis\*\*\n\n\| variable \| option \| meaning \| value \| default \|/);
  });
});
