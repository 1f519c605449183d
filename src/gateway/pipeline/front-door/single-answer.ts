import { GraphQLError } from 'graphql';
import { answerText, hasData } from '../../execution/forward/prepared-operations.ts';
import type { ResponseCache } from '../../execution/response-cache/response-cache.ts';
import type { GatewayRequest } from '../../request/gateway-request.ts';
import type { GuardList } from '../../request/guards.ts';
import { operationNameOf } from '../../request/observed-request.ts';
import { runParamsGuards } from '../guard-list.ts';
import type { DoorAnswers } from './door-answers.ts';
import type { DoorAnswer } from './door-request.ts';
import { contentTypeOf } from './media-type.ts';
import type { OperationPath, ResolvedOperation } from './operation-path.ts';
import type { DoorParams } from './request-params.ts';

export interface SingleAnswerOptions {
  guards: GuardList;
  cache: ResponseCache;
  path: OperationPath;
  answers: DoorAnswers;
}

/** The bytes a request came in (a POST's body, a GET's query string), as the cache remembers them. */
export interface RawRequest {
  key: string | undefined;
  length: number;
}

/**
 * A request of one operation on the straight path: the params guards, its persisted document
 * resolved, one look in the response cache, its plan, the operation guards, its answer kept.
 * `known` answers the same bytes again from what they parsed to, without parsing or keying.
 */
export function singleAnswer({ guards, cache, path, answers }: SingleAnswerOptions) {
  /**
   * The answer to a request whose exact bytes were answered from the cache or kept in it lately,
   * while its answer is held here: no parsing, no key, no promise; the params guards see the
   * parameters those bytes parsed to. Undefined for the request to be parsed and served as any.
   */
  function known(gateway: GatewayRequest, rawKey: string, mediaType: string): DoorAnswer | undefined {
    const request = cache.recall(rawKey);
    const cached = request && cache.peek(request.key);
    if (!cached) return undefined;
    const refused = runParamsGuards(guards.params, gateway, request.params);
    return refused ? refuse(gateway, request.params, refused, mediaType) : answers.hit(gateway, cached, mediaType);
  }

  /** The answer, or undefined for yoga to serve the request (its document has no plan, or its variables do not coerce). */
  async function answer(gateway: GatewayRequest, params: DoorParams, mediaType: string, raw: RawRequest): Promise<DoorAnswer | undefined> {
    const refused = runParamsGuards(guards.params, gateway, params);
    if (refused) return refuse(gateway, params, refused, mediaType);
    const resolved = await path.resolve(params, gateway.head);
    if (resolved instanceof GraphQLError) return refuse(gateway, params, resolved, mediaType);
    if (!resolved) return undefined;
    const key = path.keyOf(gateway, resolved.params);
    const cached = key === undefined ? undefined : await cache.read(key);
    if (cached) {
      remember(raw, key, resolved);
      return answers.hit(gateway, cached, mediaType);
    }
    return execute(gateway, resolved, key, mediaType, raw);
  }

  /** A miss: planned, run, kept; or yoga's, with what was done here, so that nothing is done twice. */
  async function execute(gateway: GatewayRequest, resolved: ResolvedOperation, key: string | undefined, mediaType: string, raw: RawRequest): Promise<DoorAnswer | undefined> {
    const { observed, head } = gateway;
    const planned = path.planOf(resolved.params, head);
    if (!planned) {
      gateway.paramsChecked = { cacheKey: key };
      return undefined;
    }
    path.registered(gateway, resolved);
    observed.lane = planned.strategy === 'delegated' ? 'delegated' : 'direct';
    observed.operations.set(observed, { name: operationNameOf(planned.operation.name?.value), type: 'query' });
    const result = await path.execute(gateway, planned);
    if (result.errors?.length || !hasData(result)) return answers.result(gateway, result, mediaType);
    observed.result = result;
    const kept = path.keep(gateway, key, planned, result);
    if (!kept) return answers.answer(gateway, 200, { 'content-type': contentTypeOf(mediaType) }, answerText(result));
    remember(raw, key, resolved);
    return answers.hit(gateway, kept, mediaType, result);
  }

  /** The same bytes again are answered by known(), without parsing or keying. */
  function remember(raw: RawRequest, key: string | undefined, { params }: ResolvedOperation): void {
    if (raw.key !== undefined && key !== undefined) cache.remember(raw.key, { key, params, rawLength: raw.length });
  }

  /** A refusal (of the params guards, or of the persisted documents), the whole answer. */
  function refuse(gateway: GatewayRequest, params: { operationName?: string | null }, refused: GraphQLError, mediaType: string): DoorAnswer {
    gateway.observed.operations.set(gateway.observed, { name: operationNameOf(params.operationName) });
    return answers.result(gateway, { errors: [refused] }, mediaType);
  }

  return { known, answer, refuse };
}

export type SingleAnswer = ReturnType<typeof singleAnswer>;
