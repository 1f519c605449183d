import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.ts';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { createProblemsService } from '../../src/upstreams/problems/service.ts';
import { createTranslationService } from '../../src/upstreams/translation/service.ts';
import { postGraphQL } from '../helpers/start-stack.ts';
import { translatedTitleOf } from '../helpers/stand-in-translation.ts';

/**
 * A gateway is configured by the settings it is given, nothing else: building it leaves the process's
 * environment as it was, and two gateways over different upstreams, with different keys, serve side
 * by side in one process.
 */
describe('settings belong to the gateway, not to the process', () => {
  const servers: RunningServer[] = [];
  const gateways: Gateway[] = [];
  const upstreams = [
    { problems: createProblemsService({ apiKey: 'problems-key-a' }), translation: createTranslationService({ apiKey: 'translation-key-a' }) },
    { problems: createProblemsService({ apiKey: 'problems-key-b' }), translation: createTranslationService({ apiKey: 'translation-key-b' }) },
  ];
  let urls: string[] = [];
  let before: Record<string, string | undefined>;

  beforeAll(async () => {
    before = { ...process.env };
    urls = [];
    for (const [index, { problems, translation }] of upstreams.entries()) {
      const problemsServer = await listen(problems.listener);
      const translationServer = await listen(translation.listener);
      servers.push(problemsServer, translationServer);
      const letter = 'ab'[index];
      const gateway = await createGateway({
        log: () => undefined,
        requestLog: false,
        settings: {
          problemsUrl: problemsServer.url,
          problemsApiKey: `problems-key-${letter}`,
          translationUrl: translationServer.url,
          translationApiKey: `translation-key-${letter}`,
          gatewayApiKeys: [`client-key-${letter}`],
        },
      });
      gateways.push(gateway);
      const server = await listen(gateway.listener);
      servers.push(server);
      urls.push(`${server.url}/graphql`);
    }
  });
  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
    for (const server of servers) await server.close();
  });

  it('leaves process.env exactly as it was', () => {
    expect({ ...process.env }).toEqual(before);
  });

  it('two gateways with different upstreams and keys serve side by side, each calling only its own', async () => {
    const query = /* GraphQL */ `{ problem(id: "p1001") { title translation(to: "es") { title } } }`;
    const [a, b] = await Promise.all([
      postGraphQL(urls[0], query, undefined, { authorization: 'Bearer client-key-a' }),
      postGraphQL(urls[1], query, undefined, { authorization: 'Bearer client-key-b' }),
    ]);
    for (const result of [a, b]) {
      expect(result.errors).toBeUndefined();
      expect(result.data.problem.translation.title).toBe(translatedTitleOf('p1001', 'es'));
    }
    for (const { problems, translation } of upstreams) {
      expect(problems.stats.requests).toBeGreaterThan(0);
      expect(translation.stats.requests).toBeGreaterThan(0);
    }
    // Each gateway knows only its own client keys.
    expect((await postGraphQL(urls[0], '{ __typename }', undefined, { authorization: 'Bearer client-key-b' })).status).toBe(401);
    expect((await postGraphQL(urls[1], '{ __typename }', undefined, { authorization: 'Bearer client-key-a' })).status).toBe(401);
  });

  it('reads no settings from the environment', async () => {
    const saved = process.env.PROBLEMS_URL;
    process.env.PROBLEMS_URL = 'http://127.0.0.1:9';
    try {
      await expect(createGateway({ log: () => undefined, settings: { translationUrl: 'http://127.0.0.1:9' } })).rejects.toThrow(/^problemsUrl: /);
    } finally {
      if (saved === undefined) delete process.env.PROBLEMS_URL;
      else process.env.PROBLEMS_URL = saved;
    }
  });
});
