import type { GraphQLSchema } from 'graphql';
import { yogaAloneOf } from '../../src/gateway/composition/engine-serving.ts';
import type { GatewayOptions } from '../../src/gateway/create-gateway.ts';
import type { RequestLogEntry } from '../../src/gateway/observability/request-log.ts';
import { addsShapes } from './operation-shapes.ts';
import { randomOperation, seeded, type RandomOperation, type RandomOperationOptions } from './random-operations.ts';
import type { AddedGateway, Stack } from './start-stack.ts';

export interface AskThreeWaysOptions {
  /** Adds a gateway over the upstreams (the stack's own, or `gateway`'s). */
  addGateway: Stack['addGateway'];
  /** The problems service's GraphQL URL and key, asked directly for the truth. */
  problems: { url: string; key: string };
  seed: number;
  count: number;
  operations: RandomOperationOptions;
  /**
   * Shapes (shapesOf) asked already, by this seed or others of the same file: an operation that
   * adds none is generated (the seed's sequence stays the same) but not asked. Unset, every
   * operation is asked (a seed kept for a case it met).
   */
  newShapesOnly?: Set<string>;
  /** More options for both gateways (another problems schema, say). */
  gateway?: Omit<GatewayOptions, 'settings'> & { settings?: GatewayOptions['settings'] };
}

export interface ThreeWaysOutcome {
  differences: string[];
  /** Operations the problems service answered without errors (their data compared with the gateway's). */
  answeredWhole: number;
  operations: { query: string; yoga: string }[];
  /** Per ask (`yoga`, `the lane`, `delegation`), how many of them each way of answering took (lanesTaken): `the lane: direct`… */
  lanes: Record<string, number>;
}

/**
 * Which way the gateway answered each request, from its request log: `yoga` (no `lane` in the
 * line), `direct` (the node:http adapter forwarded it), `delegated` (it ran Mesh's own execution),
 * `cache` (a response-cache hit). Pass
 * `requestLog` to the gateway; `laneOf` reads a response's `x-request-id` back to its log line,
 * which is written before the answer's head.
 */
export function lanesTaken(): { requestLog: (entry: RequestLogEntry) => void; laneOf: (response: Response) => string } {
  const lanes = new Map<string, string>();
  return {
    requestLog: (entry) => lanes.set(entry.requestId, entry.lane ?? 'yoga'),
    laneOf: (response) => {
      const id = response.headers.get('x-request-id') ?? '';
      const lane = lanes.get(id) ?? 'unlogged';
      lanes.delete(id);
      return lane;
    },
  };
}

interface GatewayPair {
  fast: AddedGateway;
  delegated: AddedGateway;
  fastLog: ReturnType<typeof lanesTaken>;
  delegatedLog: ReturnType<typeof lanesTaken>;
}
const builtPairs = new WeakMap<AskThreeWaysOptions['addGateway'], Map<string, Promise<GatewayPair>>>();

/**
 * Asks `count` random operations of `seed` (or those of them with new shapes: `newShapesOnly`) three ways: through yoga alone with the single-source
 * fast path, through the front door of the same gateway (forwarded or delegated plans), and
 * through the front door of a gateway that delegates everything (FAST_PATH_ENABLED=false). All three must answer the same bytes with the same status;
 * when the problems service itself answers an operation without errors, the gateway's data must be
 * the service's, key order included. Returns what differed, labelled with seed and position, and
 * how many asks each way took (from the request log): a way that took none is a difference too,
 * since its answers were then compared with themselves. The fast path's forwarding on yoga's side
 * is seen through the lane: only an operation the fast path forwarded is taken by the direct lane.
 */
export async function askThreeWays({ addGateway, problems, seed, count, operations: operationOptions, newShapesOnly, gateway = {} }: AskThreeWaysOptions): Promise<ThreeWaysOutcome> {
  const common = { problemsCacheTtlSeconds: 0, translationCacheTtlSeconds: 0, responseCacheTtlSeconds: 0, rateLimitRequests: 1_000_000, translationRateLimitRequests: 1_000_000, ...gateway.settings };
  // Built once per stack and gateway options, and asked by every seed: with every cache off, what a
  // seed asked before leaves nothing behind that changes another's answers.
  const built = builtPairs.get(addGateway) ?? new Map<string, Promise<GatewayPair>>();
  builtPairs.set(addGateway, built);
  const key = JSON.stringify(gateway);
  if (!built.has(key)) {
    const [fastLog, delegatedLog] = [lanesTaken(), lanesTaken()];
    built.set(
      key,
      (async () => ({
        fastLog,
        delegatedLog,
        fast: await addGateway({ ...gateway, requestLog: fastLog.requestLog, settings: { ...common, fastPathEnabled: true } }),
        delegated: await addGateway({ ...gateway, requestLog: delegatedLog.requestLog, settings: { ...common, fastPathEnabled: false } }),
      }))(),
    );
  }
  const { fast, delegated, fastLog, delegatedLog } = await built.get(key)!;
  const lanes: Record<string, number> = {};
  const tally = (way: string) => (lanes[way] = (lanes[way] ?? 0) + 1);
  const schema = (fast.gateway as unknown as { schema: GraphQLSchema }).schema;
  const ask = async (url: string | AddedGateway, operation: RandomOperation, headers: Record<string, string> = {}, log?: { ask: string; laneOf: (response: Response) => string }) => {
    const init = { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(operation) };
    // A gateway given (not a URL) is asked through yoga alone, behind no front door (yogaAloneOf).
    const response = typeof url === 'string' ? await fetch(url, init) : await yogaAloneOf(url.gateway).fetch(new Request(url.gatewayUrl, init));
    if (log) tally(`${log.ask}: ${log.laneOf(response)}`);
    return { status: response.status, text: await response.text() };
  };
  // Each gateway translates on its own (no translation cache), so when the service made a
  // translation (TranslationProvenance.madeAt, under any alias) is another moment for each: times
  // from during this run compare as one; the service's own times (made before it) still compare.
  const startedAt = Date.now() - 1000;
  const comparable = (text: string) => text.replace(/"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)"/g, (quoted, time: string) => (Date.parse(time) >= startedAt ? '"<during the run>"' : quoted));
  const random = seeded(seed);
  const differences: string[] = [];
  const asked: { query: string; yoga: string }[] = [];
  let answeredWhole = 0;
  for (let index = 0; index < count; index += 1) {
    const operation = randomOperation(schema, random, operationOptions);
    if (newShapesOnly && !addsShapes(schema, operation, newShapesOnly)) continue;
    const label = `seed ${seed} #${index}: ${operation.query} ${JSON.stringify(operation.variables)}`;
    const viaYoga = await ask(fast, operation, {}, { ask: 'yoga', laneOf: fastLog.laneOf });
    const viaLane = await ask(fast.gatewayUrl, operation, {}, { ask: 'the lane', laneOf: fastLog.laneOf });
    const viaDelegation = await ask(delegated.gatewayUrl, operation, {}, { ask: 'delegation', laneOf: delegatedLog.laneOf });
    asked.push({ query: operation.query, yoga: viaYoga.text });
    for (const [name, answer] of [['the lane', viaLane], ['delegation', viaDelegation]] as const) {
      if (answer.status !== viaYoga.status || comparable(answer.text) !== comparable(viaYoga.text)) differences.push(`${label}\n  yoga ${viaYoga.status} ${viaYoga.text.slice(0, 300)}\n  ${name} ${answer.status} ${answer.text.slice(0, 300)}`);
    }
    const direct = await ask(problems.url, operation, { authorization: `Bearer ${problems.key}` });
    const [ours, theirs] = [JSON.parse(viaYoga.text), JSON.parse(direct.text)] as { data?: unknown; errors?: unknown }[];
    if (ours.errors || theirs.errors) continue;
    answeredWhole += 1;
    if (JSON.stringify(ours.data) !== JSON.stringify(theirs.data)) differences.push(`${label}\n  gateway ${JSON.stringify(ours.data).slice(0, 300)}\n  service ${JSON.stringify(theirs.data).slice(0, 300)}`);
  }
  // Each way compared must have answered some of the operations itself: yoga alone, the front door
  // forwarding what the problems service answers whole, and the delegating gateway's front door
  // running Mesh's own execution.
  for (const way of ['yoga: yoga', 'the lane: direct', 'delegation: delegated']) {
    if (!lanes[way]) differences.push(`seed ${seed}: no ask took "${way}" (ask: how it was answered), so nothing was compared with it (${JSON.stringify(lanes)})`);
  }
  if (lanes['delegation: direct']) differences.push(`seed ${seed}: the delegating gateway forwarded an operation (${JSON.stringify(lanes)})`);
  return { differences, answeredWhole, operations: asked, lanes };
}
