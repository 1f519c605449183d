import { createGraphQLError } from 'graphql-yoga';
import type { DocumentNode, ExecutionResult, GraphQLError } from 'graphql';
import { sha256Of } from '../../../shared/hash.ts';
import { answerText } from '../../execution/forward/prepared-operations.ts';
import { type ResponseCache } from '../../execution/response-cache/response-cache.ts';
import type { CachedAnswer } from '../../request/cached-answer.ts';
import type { GatewayRequest } from '../../request/gateway-request.ts';
import type { GuardList } from '../../request/guards.ts';
import { answerLanguageOf, noteAnswerLanguage } from '../../request/languages-served.ts';
import { operationNameOf } from '../../request/observed-request.ts';
import { runBatchGuards } from '../guard-list.ts';
import type { DoorAnswers, Validator } from './door-answers.ts';
import type { DoorAnswer } from './door-request.ts';
import { contentTypeOf } from './media-type.ts';
import { failedOperationOf, type AdmittedOperation, type OperationPath, type PlannedOperation, type ResolvedOperation } from './operation-path.ts';
import type { DoorParams } from './request-params.ts';
import { resultText } from './result-answer.ts';

export interface BatchAnswerOptions {
  guards: GuardList;
  cache: ResponseCache;
  path: OperationPath;
  answers: DoorAnswers;
  /** Most operations in one batch (MAX_BATCH_OPERATIONS); 0: batching is refused. */
  maxOperations: number;
}

/** One operation of a batch once its document is known: admitted and planned, or the result that answers it (a refusal, its document's errors). */
type ReadyOperation = { params: DoorParams; resolved: ResolvedOperation; planned: PlannedOperation } | { params: DoorParams; errors: readonly GraphQLError[]; document?: DocumentNode };

/** One operation's answer in a batch: the result the observers read, the text written, the cached answer it is (a hit, or one just kept). */
interface BatchPart {
  result: ExecutionResult;
  text: string | Buffer;
  cached?: CachedAnswer;
}

/** What the observers read of a hit: an answer without errors. */
const HIT_RESULT: ExecutionResult = Object.freeze({});

/**
 * A batch (a JSON array of operations) on the straight path, answered as one JSON array, with yoga's
 * limits, errors and headers: the batch guards once, then each operation admitted (its params
 * guards, then its persisted document resolved) and planned, as a single request's. The batch is
 * the door's when every operation is; else it is handed on to yoga with what was done of each
 * (GatewayRequest.handedOn: no guard runs twice, no document is resolved twice). Then each
 * operation its one cache read and its run, side by side as yoga runs them. Its answer carries
 * the cache's validators only when every operation's answer was cached, for as long as the
 * shortest-lived of them.
 */
export function batchAnswer({ guards, cache, path, answers, maxOperations }: BatchAnswerOptions) {
  /** The batch's answer, or undefined for yoga to serve it whole. */
  async function answer(gateway: GatewayRequest, operations: (DoorParams | undefined)[], mediaType: string): Promise<DoorAnswer | undefined> {
    if (maxOperations <= 0 || operations.length > maxOperations) return refuseBatch(gateway, operations.length, mediaType);
    // An empty batch, or an operation that is no object of parameters: yoga words the error, with nothing done here.
    if (operations.length === 0 || operations.includes(undefined)) return undefined;
    const refusal = await runBatchGuards(guards.batch, gateway, operations.length);
    if (refusal) return answers.result(gateway, { errors: [refusal] }, mediaType);
    const admitted = await Promise.all((operations as DoorParams[]).map((params) => path.admit(gateway, params)));
    const ready: ReadyOperation[] = [];
    for (const operation of admitted) {
      const planned = readyOf(gateway, operation);
      if (!planned) {
        gateway.handedOn = { batchChecked: true, operations: admitted.map((each) => path.handed(each)) };
        return undefined;
      }
      ready.push(planned);
    }
    const parts = await Promise.all(ready.map((operation) => partOf(gateway, operation)));
    return written(gateway, parts, mediaType);
  }

  /** Over the limit: the batch guards first (they count what yoga would count), then yoga's refusal. */
  async function refuseBatch(gateway: GatewayRequest, length: number, mediaType: string): Promise<DoorAnswer> {
    const refusal = await runBatchGuards(guards.batch, gateway, length);
    return answers.result(gateway, { errors: [refusal ?? limitError(maxOperations)] }, mediaType);
  }

  /** An admitted operation planned, or the result that answers it; undefined when it is yoga's. */
  function readyOf(gateway: GatewayRequest, operation: AdmittedOperation): ReadyOperation | undefined {
    const { params } = operation;
    if ('refusal' in operation) return { params, errors: [operation.refusal] };
    const { resolved } = operation;
    const planned = resolved && path.planOf(resolved.params, gateway.head);
    if (!planned) return undefined;
    return 'run' in planned ? { params, resolved: resolved!, planned } : { params, errors: planned.errors, document: planned.document };
  }

  /** One operation's answer: its result when it failed, else one cache read, or its run (kept when it may be). */
  async function partOf(gateway: GatewayRequest, operation: ReadyOperation): Promise<BatchPart> {
    const { observed } = gateway;
    // Each operation is one entry of the request's operations, keyed by its own parameters.
    if ('errors' in operation) {
      observed.operations.set(operation.params, failedOperationOf(operation.params, operation.document));
      return failedPart(gateway, { errors: operation.errors });
    }
    const { resolved, planned } = operation;
    observed.operations.set(operation.params, { name: operationNameOf(planned.operation.name?.value), type: 'query' });
    const key = path.keyOf(gateway, resolved.params);
    const cached = key === undefined ? undefined : await cache.read(key);
    if (cached) {
      noteAnswerLanguage(gateway, cached);
      return { result: HIT_RESULT, text: cached.body, cached };
    }
    const ran = await path.runMiss(gateway, resolved, planned, key);
    if (!ran.answered) return failedPart(gateway, ran.result, planned.strategy === 'delegated');
    // The kept answer's bytes when it was kept (written once), else the result's text.
    return { result: ran.result, text: ran.kept?.body ?? answerText(ran.result), cached: ran.kept };
  }

  /** `delegated`: this operation ran by Mesh's own execution, which logs its errors' causes itself (not the batch's lane, which any one operation sets). */
  function failedPart(gateway: GatewayRequest, result: ExecutionResult, delegated = false): BatchPart {
    return { result, text: resultText(answers.masked(gateway, result, delegated)) };
  }

  /** The answers as one JSON array: 200 whatever each says (yoga's rule), the validators when every one was cached. */
  function written(gateway: GatewayRequest, parts: BatchPart[], mediaType: string): DoorAnswer {
    const { observed } = gateway;
    observed.lane ??= parts.every((part) => part.result === HIT_RESULT) ? 'cache' : 'direct';
    const pieces: Buffer[] = [OPEN];
    for (const part of parts) pieces.push(pieces.length > 1 ? COMMA : EMPTY, typeof part.text === 'string' ? Buffer.from(part.text) : part.text);
    pieces.push(CLOSE);
    const body = Buffer.concat(pieces);
    // Told to the observers as the batch's results, before masking.
    observed.result = parts.map((part) => part.result);
    const cached = parts.every((part) => part.cached !== undefined) ? parts.map((part) => part.cached!) : undefined;
    const validator = cached && validatorOf(cached, gateway);
    return answers.answer(gateway, 200, { 'content-type': contentTypeOf(mediaType) }, body, validator && { cached: validator, ifNoneMatch: gateway.head.headers.get('if-none-match') ?? undefined });
  }

  return { answer };
}

export type BatchAnswer = ReturnType<typeof batchAnswer>;

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');
const EMPTY = Buffer.alloc(0);

/** A batch's validator: one answer's own, or a digest of all of theirs; it lasts as long as the shortest-lived. */
function validatorOf(cached: CachedAnswer[], gateway: GatewayRequest): Validator {
  const etag = cached.length === 1 ? cached[0].etag : `"${sha256Of(...cached.map((answer) => answer.etag))}"`;
  const expiresAt = Math.min(...cached.map((answer) => answer.expiresAt));
  return { etag, expiresAt, ...answerLanguageOf(gateway.languagesServed) };
}

/** yoga's words for a batch over the limit (its useLimitBatching), or for any batch when batching is off. */
function limitError(maxOperations: number): GraphQLError {
  const message = maxOperations <= 0 ? 'Batching is not supported.' : `Batching is limited to ${maxOperations} operations per request.`;
  return createGraphQLError(message, { extensions: { http: { status: maxOperations <= 0 ? 400 : 413 }, code: 'BAD_REQUEST' } });
}
