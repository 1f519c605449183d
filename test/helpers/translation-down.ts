import type { GatewaySettings } from '../../src/gateway/settings.ts';
import type { AddedGateway, Stack } from './start-stack.ts';

/**
 * A gateway in production whose translation service cannot be reached (nothing listens on its port),
 * with no retries or caches to hide a call, and the error lines it logs. Mesh reads NODE_ENV itself
 * and logs the causes of delegated operations' errors only in production: `run` goes with it set.
 */
export async function withTranslationDown(stack: Stack, settings: Partial<GatewaySettings>, run: (down: AddedGateway, errorLines: string[]) => Promise<void>): Promise<void> {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    const errorLines: string[] = [];
    const down = await stack.addGateway({
      settings: { production: true, upstreamRetries: 0, translationUrl: 'http://127.0.0.1:9', problemsCacheTtlSeconds: 0, responseCacheTtlSeconds: 0, ...settings },
      log: (line, level) => void (level === 'error' && errorLines.push(line)),
    });
    await run(down, errorLines);
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}

/** A logged line with its socket address (which changes per run) written as ADDRESS. */
export const withoutAddress = (line: string): string => line.replace(/\d+\.\d+\.\d+\.\d+:\d+/, 'ADDRESS');
