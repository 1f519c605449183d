import type { MeshResolvedSource } from '@graphql-mesh/runtime';
import type { MeshPlugin } from '@graphql-mesh/types';
import type { GraphQLSchema } from 'graphql';
import type { KeyValueStore } from '../stores/key-value-store.ts';
import type { ServiceName } from '../errors.ts';
import type { GatewayLog } from '../gateway-log.ts';
import type { RequestObserver } from '../request/observed-request.ts';
import type { GatewaySettings } from '../settings.ts';
import { limitAnswerSize } from './answer-size-limit.ts';
import { breakUpstreamCircuits, type BreakerObserver } from './circuit-breaker.ts';
import { observeUpstreamCalls } from './observation.ts';
import { cacheProblemsAnswers } from './problems-cache.ts';
import { retryUpstreamCalls } from './retries.ts';
import type { SendUpstream, UpstreamCall, UpstreamStepEntry } from './upstream-call.ts';
import type { UpstreamAnswer } from './upstream-answer.ts';
import { shapeUpstreamErrors } from './upstream-errors.ts';

export interface UpstreamStepsOptions {
  settings: Pick<
    GatewaySettings,
    | 'problemsTimeoutMs'
    | 'translationTimeoutMs'
    | 'upstreamRetries'
    | 'problemsCacheTtlSeconds'
    | 'problemsMaxResponseBytes'
    | 'translationMaxResponseBytes'
    | 'upstreamBreakerFailures'
    | 'upstreamBreakerCooldownMs'
    | 'upstreamBreakerFailurePercent'
    | 'upstreamBreakerWindowMs'
  >;
  /**
   * Told about every HTTP attempt (the metrics, the tracer, the request log's counts), and those
   * with BreakerObserver's hooks about each service's circuit (metrics, readiness).
   */
  observers: (RequestObserver & BreakerObserver)[];
  /** Where problems answers are kept (Redis when replicas share one). @default in-process */
  problemsStore?: KeyValueStore;
  /** Where the circuit breaker's line for each change of state goes. @default console.warn */
  log?: GatewayLog;
  /** The circuit breaker's clock (its window and cool-down); tests move it. @default Date.now */
  breakerClock?: () => number;
  /**
   * Steps every call the problems cache does not answer goes through first, before the circuit
   * breaker: they see what the service itself answers now (shaped), never an answer kept before.
   * Each says which services' calls it watches (the schema drift watch: problems only).
   * @default none
   */
  watch?: UpstreamStepEntry[];
}

/** Source names as declared in .meshrc.yaml, and the service names clients see in errors. */
export const SERVICE_OF_SOURCE: Record<string, ServiceName> = { Problems: 'problems', Translation: 'translation' };

/**
 * Everything the gateway does around an upstream HTTP call, outermost first: a cached problems
 * answer skips the rest (identical calls in flight share one); the circuit breaker judges whole
 * calls by their shaped outcome and, while a service's circuit is open, fails its calls before any
 * attempt or retry; error shaping sees the final outcome of the retries, and reads the body
 * through the size bound (never retried: the same call would get as large an answer); retries give each
 * attempt its share of the budget; observation sees every attempt on the wire.
 *
 * The list is composed once per service (composed-call.ts), not per call: each step decides then
 * which hooks it has for that service's calls (the cache and the drift watch none for translation),
 * and a call runs the one function of its service, every step's hooks inline.
 */
export function createUpstreamSteps(options: UpstreamStepsOptions): UpstreamStepEntry[] {
  return upstreamStepsBySchema(options)('');
}

/**
 * The steps of createUpstreamSteps for a gateway whose problems schema changes while it runs: one
 * circuit breaker per service and one problems cache store for every schema, and the list of each
 * schema, whose problems cache keys answers by that schema's hash (problems-cache.ts). An engine
 * takes the list of the schema it was built from, once, so a request keeps and reads answers under
 * the schema it runs on, and no call reads which schema is served.
 */
export function upstreamStepsBySchema({ settings, observers, problemsStore, log, breakerClock, watch = [] }: UpstreamStepsOptions): (schemaHash: string) => UpstreamStepEntry[] {
  const cacheFor = cacheProblemsAnswers({ ttlMs: settings.problemsCacheTtlSeconds * 1000, store: problemsStore });
  const rest: UpstreamStepEntry[] = [
    ...watch,
    breakUpstreamCircuits({
      failures: settings.upstreamBreakerFailures,
      cooldownMs: settings.upstreamBreakerCooldownMs,
      failureRatio: settings.upstreamBreakerFailurePercent / 100,
      windowMs: settings.upstreamBreakerWindowMs,
      observers,
      log,
      now: breakerClock,
    }),
    shapeUpstreamErrors,
    limitAnswerSize({ maxBytes: { problems: settings.problemsMaxResponseBytes, translation: settings.translationMaxResponseBytes } }),
    retryUpstreamCalls({
      timeoutMs: { problems: settings.problemsTimeoutMs, translation: settings.translationTimeoutMs },
      retries: settings.upstreamRetries,
    }),
    observeUpstreamCalls(observers),
  ];
  return (schemaHash) => [cacheFor(schemaHash), ...rest];
}

/**
 * The one Mesh plugin of the upstream side: every fetch a source makes goes through `chains` (the
 * engine's steps, composed once for Mesh's calls and forwarded ones alike: composed-call.ts), as a
 * call that knows its service from the source that issued it (never from its URL). The GraphQL
 * handler names its source in the fetch's `info`; the OpenAPI handler's fetch carries the resolve
 * info of the source's own schema, which is recorded here when each source is built.
 *
 * Every call goes under `signal`, the engine's (aborted when the engine is disposed), in place of
 * the one Mesh's executor made of the client's request: a forwarded call goes under the same one,
 * so a call is cut short by its time budget or its engine's end, never by a client leaving (see
 * UpstreamCall.init).
 */
export function useUpstreamCalls(sources: MeshResolvedSource[], chains: Record<ServiceName, SendUpstream>, signal: AbortSignal): MeshPlugin<object> {
  const serviceBySchema = new WeakMap<GraphQLSchema, ServiceName>();
  for (const { name, handler } of sources) {
    const service = SERVICE_OF_SOURCE[name];
    if (!service) continue;
    const getMeshSource = handler.getMeshSource.bind(handler);
    handler.getMeshSource = async (payload) => {
      const source = await getMeshSource(payload);
      serviceBySchema.set(source.schema, service);
      return source;
    };
  }
  const serviceOf = (info: unknown): ServiceName | undefined => {
    const { sourceName, schema } = (info ?? {}) as { sourceName?: string; schema?: GraphQLSchema };
    return (sourceName ? SERVICE_OF_SOURCE[sourceName] : undefined) ?? (schema ? serviceBySchema.get(schema) : undefined);
  };
  return {
    onFetch({ url, options, context, info, fetchFn, setFetchFn }) {
      const service = serviceOf(info);
      if (!service) return;
      // Worked out once, here: the chain of the call's service, and whether it only reads.
      const send = chains[service];
      const readOnly = service === 'translation' || isReadOnly(info, options.body);
      setFetchFn((callUrl, init = {}, callContext, callInfo) =>
        // The one web Response of the call: what Mesh's handler reads.
        send({ service, url: callUrl ?? url, init: { ...init, signal }, context: callContext ?? context, info: callInfo, readOnly, network: fetchFn }).then(toResponse),
      );
    },
  };
}

function toResponse(answer: UpstreamAnswer): Response | Promise<Response> {
  return answer.toResponse();
}

/**
 * Whether a problems call only reads (a query, never a mutation or subscription). The resolver info
 * Mesh passes names the operation; without it, the GraphQL body's leading keyword tells (Mesh sends
 * one operation per request).
 */
export function isReadOnly(info: unknown, body: unknown): boolean {
  const operation = (info as { operation?: { operation?: string } } | undefined)?.operation?.operation;
  if (operation) return operation === 'query';
  if (typeof body !== 'string') return false;
  try {
    const query = (JSON.parse(body) as { query?: unknown }).query;
    return typeof query === 'string' && !/^\s*(mutation|subscription)\b/.test(query);
  } catch {
    return false;
  }
}

export type { UpstreamCall };
