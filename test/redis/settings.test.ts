import { describe, expect, it } from 'vitest';
import { SettingsError, readSettings, settingsFromOptions } from '../../src/gateway/settings.ts';

describe('Redis settings (REDIS_URL, REDIS_PREFIX, REDIS_TIMEOUT_MS)', () => {
  it('MUST default to the package name as prefix and a 100 ms budget, Redis unset', () => {
    const settings = readSettings({});
    expect(settings.redisUrl).toBeUndefined();
    expect(settings.redisPrefix).toBe('problems-translation-gateway');
    expect(settings.redisTimeoutMs).toBe(100);
  });

  it('MUST refuse a prefix with spaces and a budget over 150 ms, naming the variable', () => {
    expect(() => readSettings({ REDIS_PREFIX: 'my gateway' })).toThrow(SettingsError);
    expect(() => readSettings({ REDIS_PREFIX: 'my gateway' })).toThrow(/^REDIS_PREFIX: /);
    expect(() => readSettings({ REDIS_TIMEOUT_MS: '151' })).toThrow(/^REDIS_TIMEOUT_MS: /);
    expect(() => settingsFromOptions({ redisTimeoutMs: 0 })).toThrow(/option redisTimeoutMs, variable REDIS_TIMEOUT_MS/);
  });

  it('MUST NOT echo a REDIS_URL that cannot be read (it may hold a password)', () => {
    expect(() => readSettings({ REDIS_URL: 'redis://:pa ss@[bad' })).toThrow(SettingsError);
    try {
      readSettings({ REDIS_URL: 'redis://:pa ss@[bad' });
    } catch (error) {
      expect((error as Error).message).not.toContain('pa ss');
    }
  });
});
