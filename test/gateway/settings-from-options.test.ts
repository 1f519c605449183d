import { describe, expect, it } from 'vitest';
import { SETTINGS, SettingsError, readSettings, settingsFromOptions } from '../../src/gateway/settings.ts';

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

  it('checks options as values, never as the text a variable would hold', () => {
    expect(() => settingsFromOptions({ port: '8080' as never })).toThrow(/^port: expected a port number from 0 to 65535, got "8080" \(option port, variable PORT\)$/);
    expect(() => settingsFromOptions({ gatewayApiKeys: 'a,b' as never })).toThrow(/^gatewayApiKeys: expected a list of strings/);
    expect(() => settingsFromOptions({ metricsEnabled: 'false' as never })).toThrow(/^metricsEnabled: expected true or false/);
    expect(() => settingsFromOptions({ problemsSchemaPollSeconds: 0.0001 })).toThrow(/option problemsSchemaPollSeconds/);
    expect(settingsFromOptions({ translationPrewarm: ['ES', 'pt_br', 'es'], corsOrigins: ['https://a.example/'], problemsSchemaPollSeconds: 0.25 })).toMatchObject({
      translationPrewarm: ['es', 'pt-BR'],
      corsOrigins: ['https://a.example'],
      problemsSchemaPollSeconds: 0.25,
    });
  });

  it('takes an option given as an empty string or undefined as not given, as an empty variable is', () => {
    expect(settingsFromOptions({ problemsApiKey: '', redisPrefix: '', translationUrl: undefined }, { TRANSLATION_URL: 'http://mt:5000' })).toMatchObject({
      problemsApiKey: undefined,
      redisPrefix: 'problems-translation-gateway',
      translationUrl: 'http://mt:5000',
    });
  });

  it('takes back what it returned: a whole settings object given as options is the same settings', () => {
    const env = { NODE_ENV: 'production', CORS_ORIGINS: '*', TRUST_PROXY: '2', TRANSLATION_DEFAULT_LANGUAGES: 'es-419,en', PROBLEMS_URL: 'http://host:1/graphql' };
    const settings = readSettings(env);
    expect(settingsFromOptions(settings)).toEqual(settings);
  });

  it('gives every setting its default from the table: only optional ones are left unset', () => {
    const settings = readSettings({});
    const unset = Object.keys(SETTINGS).filter((name) => settings[name as keyof typeof settings] === undefined);
    expect(unset.sort()).toEqual(
      Object.entries(SETTINGS)
        .filter(([, setting]) => setting.optional)
        .map(([name]) => name)
        .sort(),
    );
    expect(unset.sort()).toEqual(['otlpEndpoint', 'problemsApiKey', 'problemsUrl', 'redisUrl', 'standIns', 'translationApiKey', 'translationCuratedDir', 'translationMaxCharsPerCall', 'translationSourceLanguage', 'translationUrl', 'trustedDocuments']);
  });
});
