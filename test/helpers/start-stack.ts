import { createGateway, type Gateway, type GatewayOptions } from '../../src/gateway/create-gateway.ts';
import type { GatewaySettings } from '../../src/gateway/settings.ts';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { createProblemsService } from '../../src/upstreams/problems/service.ts';
import { createTranslationService } from '../../src/upstreams/translation/service.ts';

export const PROBLEMS_KEY = 'problems-test-key';
export const TRANSLATION_KEY = 'translation-test-key';

export interface GraphQLResponse<TData = any> {
  status: number;
  data?: TData;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, any> }[];
  /** The raw body text, to check nothing secret leaked. */
  text: string;
}

export interface AddedGateway extends Pick<Stack, 'gateway' | 'gatewayUrl' | 'query'> {
  close(): Promise<void>;
}

export interface Stack {
  gateway: Gateway;
  gatewayUrl: string;
  problems: ReturnType<typeof createProblemsService>;
  translation: ReturnType<typeof createTranslationService>;
  /** The stand-ins' HTTP servers, e.g. to count their open connections. */
  upstreamServers: { problems: RunningServer; translation: RunningServer };
  /** The settings that point a gateway at the stand-ins (URLs and keys). */
  upstreamSettings: Pick<GatewaySettings, 'problemsUrl' | 'problemsApiKey' | 'translationUrl' | 'translationApiKey'>;
  query<TData = any>(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<GraphQLResponse<TData>>;
  /** Another gateway, with other settings (over the stand-ins unless they say otherwise), closed with the stack or by its own `close()`. */
  addGateway(options?: GatewayOptions): Promise<AddedGateway>;
  close(): Promise<void>;
}

/**
 * Starts both stand-in upstreams (each requiring its key) and the gateway in front of them, all on
 * free ports, wired through the gateway's settings (the environment is left alone).
 */
export async function startStack(gatewayOptions: GatewayOptions = {}): Promise<Stack> {
  const problems = createProblemsService({ apiKey: PROBLEMS_KEY });
  const translation = createTranslationService({ apiKey: TRANSLATION_KEY });
  const servers: RunningServer[] = [await listen(problems.listener), await listen(translation.listener)];
  const upstreamSettings = {
    problemsUrl: servers[0].url,
    problemsApiKey: PROBLEMS_KEY,
    translationUrl: servers[1].url,
    translationApiKey: TRANSLATION_KEY,
  };
  const gateways: { gateway: Gateway; server: RunningServer }[] = [];
  const addGateway = async (options: GatewayOptions = {}) => {
    // Every test request comes from 127.0.0.1: lift the per-client limits unless a test sets them. The
    // response cache would answer a repeated query without any upstream call: on only where a test
    // asks for it, so the others see every query reach the upstreams. So with the circuit breaker:
    // a file that makes an upstream fail on purpose, case after case, would open it and see its
    // refusals instead of the failures it asserts; it is on where a test asks for it. And so with
    // polling the problems schema: a gateway left open by an earlier case would introspect in the
    // middle of a later one that counts upstream calls (the check a refusal triggers stays on).
    const settings = {
      ...upstreamSettings,
      rateLimitRequests: 1_000_000,
      translationRateLimitRequests: 1_000_000,
      responseCacheTtlSeconds: 0,
      upstreamBreakerFailures: 0,
      problemsSchemaPollSeconds: 0,
      ...options.settings,
    };
    // Request log lines stay out of test output unless a test asks for them (options.requestLog).
    const gateway = await createGateway({ log: () => undefined, requestLog: false, ...options, settings });
    const server = await listen(gateway.listener);
    const added = { gateway, server };
    gateways.push(added);
    const gatewayUrl = `${server.url}/graphql`;
    return {
      gateway,
      gatewayUrl,
      close: async () => {
        if (!gateways.includes(added)) return;
        gateways.splice(gateways.indexOf(added), 1);
        await server.close();
        await gateway.close();
      },
      query: <TData = any>(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>) =>
        postGraphQL<TData>(gatewayUrl, query, variables, headers),
    };
  };
  const { close: _closeMain, ...main } = await addGateway(gatewayOptions);
  return {
    ...main,
    problems,
    translation,
    upstreamServers: { problems: servers[0], translation: servers[1] },
    upstreamSettings,
    addGateway,
    close: async () => {
      for (const { gateway, server } of gateways) {
        await server.close();
        await gateway.close();
      }
      for (const server of servers) await server.close();
    },
  };
}

export async function postGraphQL<TData = any>(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<GraphQLResponse<TData>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const text = await response.text();
  const body = JSON.parse(text);
  return { status: response.status, data: body.data, errors: body.errors, text };
}
