import type { GraphQLSchema } from 'graphql';
import type { GatewayOptions } from '../../src/gateway/create-gateway.ts';
import { randomOperation, seeded, type RandomOperation, type RandomOperationOptions } from './random-operations.ts';
import type { Stack } from './start-stack.ts';

export interface AskThreeWaysOptions {
  /** Adds a gateway over the upstreams (the stack's own, or `gateway`'s). */
  addGateway: Stack['addGateway'];
  /** The problems service's GraphQL URL and key, asked directly for the truth. */
  problems: { url: string; key: string };
  seed: number;
  count: number;
  operations: RandomOperationOptions;
  /** More options for both gateways (another problems schema, say). */
  gateway?: Omit<GatewayOptions, 'settings'> & { settings?: GatewayOptions['settings'] };
}

export interface ThreeWaysOutcome {
  differences: string[];
  /** Operations the problems service answered without errors (their data compared with the gateway's). */
  answeredWhole: number;
  operations: { query: string; yoga: string }[];
}

/**
 * Asks `count` random operations of `seed` three ways: through yoga with the single-source fast
 * path, once more (the direct lane in front of yoga), and through a gateway that delegates
 * everything (FAST_PATH_ENABLED=false). All three must answer the same bytes with the same status;
 * when the problems service itself answers an operation without errors, the gateway's data must be
 * the service's, key order included. Returns what differed, labelled with seed and position.
 */
export async function askThreeWays({ addGateway, problems, seed, count, operations: operationOptions, gateway = {} }: AskThreeWaysOptions): Promise<ThreeWaysOutcome> {
  const common = { problemsCacheTtlSeconds: 0, translationCacheTtlSeconds: 0, responseCacheTtlSeconds: 0, rateLimitRequests: 1_000_000, translationRateLimitRequests: 1_000_000, ...gateway.settings };
  const fast = await addGateway({ ...gateway, settings: { ...common, fastPathEnabled: true } });
  const delegated = await addGateway({ ...gateway, settings: { ...common, fastPathEnabled: false } });
  const schema = (fast.gateway as unknown as { schema: GraphQLSchema }).schema;
  const ask = async (url: string, operation: RandomOperation, headers: Record<string, string> = {}) => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(operation) });
    return { status: response.status, text: await response.text() };
  };
  const random = seeded(seed);
  const differences: string[] = [];
  const asked: { query: string; yoga: string }[] = [];
  let answeredWhole = 0;
  for (let index = 0; index < count; index += 1) {
    const operation = randomOperation(schema, random, operationOptions);
    const label = `seed ${seed} #${index}: ${operation.query} ${JSON.stringify(operation.variables)}`;
    const viaYoga = await ask(fast.gatewayUrl, operation);
    const viaLane = await ask(fast.gatewayUrl, operation);
    const viaDelegation = await ask(delegated.gatewayUrl, operation);
    asked.push({ query: operation.query, yoga: viaYoga.text });
    for (const [name, answer] of [['the lane', viaLane], ['delegation', viaDelegation]] as const) {
      if (answer.status !== viaYoga.status || answer.text !== viaYoga.text) differences.push(`${label}\n  yoga ${viaYoga.status} ${viaYoga.text.slice(0, 300)}\n  ${name} ${answer.status} ${answer.text.slice(0, 300)}`);
    }
    const direct = await ask(problems.url, operation, { authorization: `Bearer ${problems.key}` });
    const [ours, theirs] = [JSON.parse(viaYoga.text), JSON.parse(direct.text)] as { data?: unknown; errors?: unknown }[];
    if (ours.errors || theirs.errors) continue;
    answeredWhole += 1;
    if (JSON.stringify(ours.data) !== JSON.stringify(theirs.data)) differences.push(`${label}\n  gateway ${JSON.stringify(ours.data).slice(0, 300)}\n  service ${JSON.stringify(theirs.data).slice(0, 300)}`);
  }
  return { differences, answeredWhole, operations: asked };
}
