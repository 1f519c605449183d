import { describe, expect, it } from 'vitest';
import { SettingsError, settingsFromOptions } from '../../src/gateway/settings.ts';

describe('settingsFromOptions (embedding)', () => {
  it('takes options over the environment', () => {
    const settings = settingsFromOptions({ port: 8081, gatewayApiKeys: ['a', 'b'], production: true }, { PORT: '9000', MAX_DEPTH: '7' });
    expect(settings).toMatchObject({ port: 8081, gatewayApiKeys: ['a', 'b'], production: true, maxDepth: 7, introspection: false });
  });

  it('validates options exactly like variables, naming the option and its variable', () => {
    expect(() => settingsFromOptions({ problemsUrl: 'not a url' }, {})).toThrow(
      new SettingsError('problemsUrl', 'not a valid URL (expected http: or https://host[:port]) (option problemsUrl, variable PROBLEMS_URL)'),
    );
    expect(() => settingsFromOptions({ maxDepth: 0 }, {})).toThrow(/^maxDepth: expected a whole number 1 or more, got "0" \(option maxDepth, variable MAX_DEPTH\)$/);
  });

  it('refuses an option that is not a setting', () => {
    expect(() => settingsFromOptions({ nope: 1 } as never, {})).toThrow('nope: is not a gateway setting');
  });

  it('still reports a bad environment variable by its name', () => {
    expect(() => settingsFromOptions({}, { PORT: 'x' })).toThrow(/^PORT: /);
  });
});
