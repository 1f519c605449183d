import { GraphQLError, type ExecutionResult } from 'graphql';
import type { PreparedOperation, PreparedOperations, PreparedRun, PlanStrategy } from '../../execution/forward/prepared-operations.ts';
import { compileOperationEstimate, type OperationEstimator } from '../../execution/shape/operation-cost.ts';
import type { CacheableParams, ResponseCache } from '../../execution/response-cache/response-cache.ts';
import type { PersistedDocuments } from '../../guards/persisted-documents.ts';
import type { CachedAnswer } from '../../request/cached-answer.ts';
import type { GatewayRequest } from '../../request/gateway-request.ts';
import type { GuardList, MaybePromise } from '../../request/guards.ts';
import { answerLanguageOf } from '../../request/languages-served.ts';
import type { OperationEstimate } from '../../request/operation-estimate.ts';
import type { RequestHead } from '../../request/observed-request.ts';
import type { DocumentPlanner } from '../document-planner.ts';
import { runOperationGuards } from '../guard-list.ts';
import type { DoorParams } from './request-params.ts';

/** What the door needs to answer planned operations itself. */
export interface DirectForwarding {
  /** The plans of the texts seen (execution/forward/prepared-operations.ts). */
  operations: PreparedOperations;
  /** Plans a text seen for the first time (document-planner.ts); without it, only texts yoga has planned are. */
  plan?: DocumentPlanner;
  /** Told every answer's errors before they are masked, to log their causes as Mesh does for yoga's (mesh-logger.ts). */
  onErrors?: (errors: readonly GraphQLError[]) => void;
}

export interface OperationPathOptions {
  guards: GuardList;
  cache: ResponseCache;
  direct?: DirectForwarding;
  /** Persisted-query hashes and trusted document ids, resolved as yoga's plugin resolves them. */
  persisted?: PersistedDocuments;
}

/** An operation's parameters with its persisted document resolved, and the hash to keep it under once it has validated. */
export interface ResolvedOperation {
  params: CacheableParams;
  register?: string;
}

/** An operation's plan bound to its variables: what runs it, and what the guards and the cache read of it. */
export interface PlannedOperation {
  run: PreparedRun;
  operation: PreparedOperation['operation'];
  estimate: OperationEstimate;
  strategy: PlanStrategy;
}

/**
 * The steps of one operation on the straight path, each a plain function, which a single request
 * and each operation of a batch take in their own order (front-door.ts, batch-answer.ts): its
 * persisted document resolved, its cache key, its plan bound to its variables, its execution behind
 * the operation guards, and its answer kept.
 */
export function operationPath({ guards, cache, direct, persisted }: OperationPathOptions) {
  // Each plan's cost estimate, compiled the first time a request of its text arrives and dropped with
  // the plan: what the document alone decides is found once, not at every request.
  const estimators = new WeakMap<PreparedOperation, OperationEstimator>();
  const estimatorOf = (prepared: PreparedOperation, operationName: string | null | undefined): OperationEstimator => {
    let estimator = estimators.get(prepared);
    if (!estimator) estimators.set(prepared, (estimator = compileOperationEstimate(prepared.schema, prepared.document, operationName)));
    return estimator;
  };

  /**
   * The parameters with a persisted-query hash or trusted document id resolved to their document
   * (guards/persisted-documents.ts, yoga's rules exactly), or the error that answers the operation;
   * undefined when the door does not serve it (persisted documents that only yoga's plugin knows).
   */
  function resolve(params: DoorParams, head: RequestHead): MaybePromise<ResolvedOperation | GraphQLError | undefined> {
    const plain = params.extensions === undefined && params.documentId === undefined;
    // Plain parameters need no resolving, unless only trusted documents run (their text is resolved too).
    if (!persisted || (plain && !persisted.trustedOnly)) return plain && params.query !== undefined ? { params: params as CacheableParams } : undefined;
    let resolved;
    try {
      resolved = persisted.resolve(params, head.method, head.url);
    } catch (error) {
      return asGraphQLError(error);
    }
    if (resolved instanceof Promise) return resolved.then((settled) => resolvedOf(params, settled), asGraphQLError);
    return resolvedOf(params, resolved);
  }

  /** The operation's response-cache key (response-cache.ts), when the cache is on. */
  function keyOf({ head, readerLanguages }: GatewayRequest, params: CacheableParams): string | undefined {
    // The reader's languages as read once on arrival (bounded, normalized), never the raw header.
    return cache.enabled ? cache.keyOf(head.headers.get('authorization'), params, readerLanguages.key) : undefined;
  }

  /**
   * The plan of the operation, bound to its variables: found among the texts seen, or made now for a
   * text seen for the first time; undefined leaves it to yoga (no plan, or variables that do not
   * coerce: graphql-js words the error).
   */
  function planOf(params: CacheableParams, request: RequestHead): PlannedOperation | undefined {
    if (!direct) return undefined;
    const found = direct.operations.find(params.query, params.operationName);
    const prepared = found === undefined ? direct.plan?.(params.query, params.operationName, request) : found;
    if (!prepared) return undefined;
    const variables = (params.variables ?? undefined) as Record<string, unknown> | undefined;
    const estimate = estimatorOf(prepared, params.operationName)(variables);
    if (!estimate?.coercedVariables) return undefined;
    const run = prepared.bind(variables, estimate.coercedVariables);
    return run && { run, operation: prepared.operation, estimate, strategy: prepared.strategy ?? 'forwarded' };
  }

  /** Keeps a document sent with its hash once its plan says it validated (as yoga's plugin does once validation ends). */
  function registered(gateway: GatewayRequest, { params, register }: ResolvedOperation): void {
    if (register !== undefined) persisted?.register(register, params.query, gateway.identity);
  }

  /** The operation guards, then the run: as in yoga, where they run just before execution, a refusal is the whole result. */
  async function execute(gateway: GatewayRequest, { run, estimate }: PlannedOperation): Promise<ExecutionResult> {
    try {
      const refusal = await runOperationGuards(guards.operation, gateway, estimate);
      return refusal ? { errors: [refusal] } : await run({ request: gateway.head, gateway });
    } catch (error) {
      // Forwarding reports the source's failures in the answer; this is the gateway's own fault.
      return { errors: [new GraphQLError('Unexpected error.', { originalError: error as Error })] };
    }
  }

  /** The answer kept under `key` when it may be reused, with the language its texts were answered in (a hit's headers). */
  function keep(gateway: GatewayRequest, key: string | undefined, { operation }: PlannedOperation, result: ExecutionResult): CachedAnswer | undefined {
    return key === undefined ? undefined : cache.keep(key, operation, result, answerLanguageOf(gateway.languagesServed));
  }

  return { resolve, keyOf, planOf, registered, execute, keep };
}

export type OperationPath = ReturnType<typeof operationPath>;

function resolvedOf(params: DoorParams, resolved: { params: { query: string }; register?: string } | undefined): ResolvedOperation | undefined {
  if (resolved) return { params: resolved.params as CacheableParams, register: resolved.register };
  // Unchanged, and still without a document (a hash the persisted documents let pass): yoga's.
  return params.query === undefined ? undefined : { params: params as CacheableParams };
}

function asGraphQLError(error: unknown): GraphQLError {
  return error instanceof GraphQLError ? error : new GraphQLError('Unexpected error.', { originalError: error as Error });
}
