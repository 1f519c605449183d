import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

describe('readiness with REDIS_URL', () => {
  let redis: RedisServer;
  let stack: Stack;
  const readiness = async () => {
    const response = await fetch(stack.gatewayUrl.replace(/\/graphql$/, '/readiness'));
    return { status: response.status, body: (await response.json()) as { status: string; services: Record<string, string> } };
  };
  /** Readiness results are reused for 2 s: the first answer that shows `status`. */
  const readinessOnce = async (status: string) => {
    const until = Date.now() + 10_000;
    for (;;) {
      const answer = await readiness();
      if (answer.body.status === status || Date.now() > until) return answer;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  beforeAll(async () => {
    redis = await startRedis();
    stack = await startStack({ settings: { redisUrl: redis.url } });
  });
  afterAll(async () => {
    await stack?.close();
    await redis?.stop();
  });

  it('MUST report Redis among the dependencies, ok while it answers', async () => {
    expect(await readiness()).toEqual({ status: 200, body: expect.objectContaining({ status: 'ready', services: { problems: 'ok', translation: 'ok', redis: 'ok' } }) });
  });

  it('MUST stay 200 and say degraded, never not ready, while Redis is down, and ready again once it is back', async () => {
    await redis.kill();
    const down = await readinessOnce('degraded');
    expect(down.status).toBe(200);
    expect(down.body.status).toBe('degraded');
    expect(down.body.services).toEqual({ problems: 'ok', translation: 'ok', redis: expect.stringMatching(/^unreachable/) });
    expect(JSON.stringify(down.body)).not.toContain(String(redis.port));

    await redis.restart();
    expect(await readinessOnce('ready')).toEqual({ status: 200, body: expect.objectContaining({ status: 'ready', services: { problems: 'ok', translation: 'ok', redis: 'ok' } }) });
  });

  it('MUST leave Redis out of the report when REDIS_URL is not set', async () => {
    const plain = await stack.addGateway();
    const response = await fetch(plain.gatewayUrl.replace(/\/graphql$/, '/readiness'));
    expect(((await response.json()) as { services: Record<string, string> }).services).toEqual({ problems: 'ok', translation: 'ok' });
  });
});
