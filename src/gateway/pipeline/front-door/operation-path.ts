import { getOperationAST, GraphQLError, type DocumentNode, type ExecutionResult } from 'graphql';
import type { PreparedOperation, PreparedOperations, PreparedRun, PlanStrategy } from '../../execution/forward/prepared-operations.ts';
import { compileOperationEstimate, type OperationEstimator } from '../../execution/shape/operation-cost.ts';
import type { CacheableParams, ResponseCache } from '../../execution/response-cache/response-cache.ts';
import type { PersistedDocuments } from '../../guards/persisted-documents.ts';
import type { CachedAnswer } from '../../request/cached-answer.ts';
import type { GatewayRequest, HandedOperation } from '../../request/gateway-request.ts';
import type { GuardList, MaybePromise } from '../../request/guards.ts';
import { answerLanguageOf } from '../../request/languages-served.ts';
import { hasData } from '../../execution/forward/prepared-operations.ts';
import type { OperationEstimate } from '../../request/operation-estimate.ts';
import { operationNameOf, type RequestHead } from '../../request/observed-request.ts';
import type { DocumentErrors, DocumentPlanner } from '../document-planner.ts';
import { runOperationGuards, runParamsGuards } from '../guard-list.ts';
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

/**
 * An operation let in: its params guards passed and its persisted document resolved (`resolved`,
 * undefined when the door does not serve it), or refused (`refusal`: the params guards', or the
 * error resolving its persisted document met). `params`: as sent, as the params guards read them.
 */
export type AdmittedOperation = { params: DoorParams; refusal: GraphQLError } | { params: DoorParams; resolved: ResolvedOperation | undefined };

/** A miss run: its result, and the answer kept of it (undefined when it may not be kept); `answered`: with data and without errors. */
export interface RanOperation {
  result: ExecutionResult;
  answered: boolean;
  kept: CachedAnswer | undefined;
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
 * and each operation of a batch take (single-answer.ts, batch-answer.ts): admitted (its params
 * guards, then its persisted document resolved), its cache key, its plan bound to its variables,
 * and a miss run (registered, executed behind the operation guards, kept); or what was done of it,
 * handed on to yoga.
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

  /** The params guards on the parameters as sent, then (let through) its persisted document resolved. */
  function admit(gateway: GatewayRequest, params: DoorParams): MaybePromise<AdmittedOperation> {
    const refusal = runParamsGuards(guards.params, gateway, params);
    if (refusal) return { params, refusal };
    const resolved = resolve(persisted, params, gateway.head);
    if (resolved instanceof Promise) return resolved.then((settled) => admitted(params, settled));
    return admitted(params, resolved);
  }

  /**
   * What the door did of an admitted operation it hands on to yoga: its refusal, its parameters as
   * resolved here (yoga's persisted documents do not resolve them again), and, when it was looked
   * up in the response cache and missed, its key.
   */
  function handed(operation: AdmittedOperation, cacheKey?: string): HandedOperation {
    if ('refusal' in operation) return { refusal: operation.refusal, lookedUp: false };
    // Without the persisted documents here, yoga's resolve them.
    const resolved = operation.resolved?.params ?? (persisted ? (operation.params as CacheableParams) : undefined);
    return { resolved, lookedUp: cacheKey !== undefined, cacheKey };
  }

  /** The operation's response-cache key (response-cache.ts), when the cache is on. */
  function keyOf({ head, readerLanguages }: GatewayRequest, params: CacheableParams): string | undefined {
    // The reader's languages as read once on arrival (bounded, normalized), never the raw header.
    return cache.enabled ? cache.keyOf(head.headers.get('authorization'), params, readerLanguages.key) : undefined;
  }

  /**
   * The plan of the operation, bound to its variables: found among the texts seen, or made now for a
   * text seen for the first time; the engine's errors for a document that does not parse or
   * validate; undefined leaves it to yoga (no plan, or variables that do not coerce: graphql-js
   * words the error).
   */
  function planOf(params: CacheableParams, request: RequestHead): PlannedOperation | DocumentErrors | undefined {
    if (!direct) return undefined;
    const found = direct.operations.find(params.query, params.operationName);
    const prepared = found === undefined ? direct.plan?.(params.query, params.operationName, request) : found;
    if (!prepared) return undefined;
    if (!('bind' in prepared)) return prepared;
    const variables = (params.variables ?? undefined) as Record<string, unknown> | undefined;
    const estimate = estimatorOf(prepared, params.operationName)(variables);
    if (!estimate?.coercedVariables) return undefined;
    const run = prepared.bind(variables, estimate.coercedVariables);
    return run && { run, operation: prepared.operation, estimate, strategy: prepared.strategy ?? 'forwarded' };
  }

  /**
   * A miss, run: its persisted document registered (its plan says it validated), the operation
   * guards and the run, and the answer kept under `key` when it may be. A delegated operation says
   * so on the request (its lane): Mesh's own execution logs its errors' causes.
   */
  async function runMiss(gateway: GatewayRequest, resolved: ResolvedOperation, planned: PlannedOperation, key: string | undefined): Promise<RanOperation> {
    registered(persisted, gateway, resolved);
    if (planned.strategy === 'delegated') gateway.observed.lane = 'delegated';
    const result = await execute(guards, gateway, planned);
    const answered = !result.errors?.length && hasData(result);
    return { result, answered, kept: answered ? keep(cache, gateway, key, planned, result) : undefined };
  }

  return { admit, handed, keyOf, planOf, runMiss };
}

/**
 * The parameters with a persisted-query hash or trusted document id resolved to their document
 * (guards/persisted-documents.ts, yoga's rules exactly), or the error that answers the operation;
 * undefined when the door does not serve it (persisted documents that only yoga's plugin knows).
 */
function resolve(persisted: PersistedDocuments | undefined, params: DoorParams, head: RequestHead): MaybePromise<ResolvedOperation | GraphQLError | undefined> {
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

/** Keeps a document sent with its hash once its plan says it validated (as yoga's plugin does once validation ends). */
function registered(persisted: PersistedDocuments | undefined, gateway: GatewayRequest, { params, register }: ResolvedOperation): void {
  if (register !== undefined) persisted?.register(register, params.query, gateway.identity);
}

/** The operation guards, then the run: as in yoga, where they run just before execution, a refusal is the whole result. */
async function execute(guards: GuardList, gateway: GatewayRequest, { run, estimate }: PlannedOperation): Promise<ExecutionResult> {
  try {
    const refusal = await runOperationGuards(guards.operation, gateway, estimate);
    return refusal ? { errors: [refusal] } : await run({ request: gateway.head, gateway });
  } catch (error) {
    // Forwarding reports the source's failures in the answer; this is the gateway's own fault.
    return { errors: [new GraphQLError('Unexpected error.', { originalError: error as Error })] };
  }
}

/** The answer kept under `key` when it may be reused, with the language its texts were answered in (a hit's headers). */
function keep(cache: ResponseCache, gateway: GatewayRequest, key: string | undefined, { operation }: PlannedOperation, result: ExecutionResult): CachedAnswer | undefined {
  return key === undefined ? undefined : cache.keep(key, operation, result, answerLanguageOf(gateway.languagesServed));
}

/**
 * What the request log and metrics record of an operation answered with errors before it ran, as
 * yoga's observation records it: the operation its document names when it parsed (a validation
 * error), else the name the client asked for.
 */
export function failedOperationOf(params: { operationName?: string | null }, document: DocumentNode | undefined): { name?: string; type?: string } {
  if (!document) return { name: operationNameOf(params.operationName) };
  const operation = getOperationAST(document, params.operationName ?? undefined);
  return { name: operationNameOf(operation?.name?.value), type: operation?.operation };
}

export type OperationPath = ReturnType<typeof operationPath>;

function admitted(params: DoorParams, resolved: ResolvedOperation | GraphQLError | undefined): AdmittedOperation {
  return resolved instanceof GraphQLError ? { params, refusal: resolved } : { params, resolved };
}

function resolvedOf(params: DoorParams, resolved: { params: { query: string }; register?: string } | undefined): ResolvedOperation | undefined {
  if (resolved) return { params: resolved.params as CacheableParams, register: resolved.register };
  // Unchanged, and still without a document (a hash the persisted documents let pass): yoga's.
  return params.query === undefined ? undefined : { params: params as CacheableParams };
}

function asGraphQLError(error: unknown): GraphQLError {
  return error instanceof GraphQLError ? error : new GraphQLError('Unexpected error.', { originalError: error as Error });
}
