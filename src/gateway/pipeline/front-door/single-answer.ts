import type { DocumentNode, GraphQLError } from 'graphql';
import { answerText } from '../../execution/forward/prepared-operations.ts';
import type { ResponseCache } from '../../execution/response-cache/response-cache.ts';
import type { GatewayRequest, HandedOperation } from '../../request/gateway-request.ts';
import type { GuardList } from '../../request/guards.ts';
import { operationNameOf } from '../../request/observed-request.ts';
import { runParamsGuards } from '../guard-list.ts';
import type { DoorAnswers } from './door-answers.ts';
import type { DoorAnswer } from './door-request.ts';
import { contentTypeOf } from './media-type.ts';
import { failedOperationOf, type AdmittedOperation, type OperationPath, type ResolvedOperation } from './operation-path.ts';
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
 * A request of one operation on the straight path (operation-path.ts): admitted (params guards,
 * persisted document), one look in the response cache, its plan (or its document's errors), its
 * run, its answer kept. `known` answers the same bytes again from what they parsed to, without
 * parsing or keying; its params guards read the same parameters as the first time (as sent).
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
    return refused ? failed(gateway, request.params, [refused], mediaType) : answers.hit(gateway, cached, mediaType);
  }

  /** The answer, or undefined for yoga to serve the request (with what was done here on `gateway.handedOn`). */
  async function answer(gateway: GatewayRequest, params: DoorParams, mediaType: string, raw: RawRequest): Promise<DoorAnswer | undefined> {
    const admitted = await path.admit(gateway, params);
    if ('refusal' in admitted) return failed(gateway, params, [admitted.refusal], mediaType);
    const { resolved } = admitted;
    if (!resolved) return handOn(gateway, path.handed(admitted));
    const key = path.keyOf(gateway, resolved.params);
    const cached = key === undefined ? undefined : await cache.read(key);
    if (cached) {
      remember(raw, key, admitted, resolved);
      return answers.hit(gateway, cached, mediaType);
    }
    const planned = path.planOf(resolved.params, gateway.head);
    if (!planned) return handOn(gateway, path.handed(admitted, key));
    // A document that does not parse or validate: the engine's errors, answered as yoga answers them.
    if (!('run' in planned)) return failed(gateway, params, planned.errors, mediaType, planned.document);
    const { observed } = gateway;
    observed.operations.set(observed, { name: operationNameOf(planned.operation.name?.value), type: 'query' });
    const ran = await path.runMiss(gateway, resolved, planned, key);
    observed.lane ??= 'direct';
    if (!ran.answered) return answers.result(gateway, ran.result, mediaType);
    observed.result = ran.result;
    if (!ran.kept) return answers.answer(gateway, 200, { 'content-type': contentTypeOf(mediaType) }, answerText(ran.result));
    remember(raw, key, admitted, resolved);
    return answers.hit(gateway, ran.kept, mediaType, ran.result);
  }

  /** The same bytes again are answered by known(), without parsing or keying; their params guards read the parameters as sent. */
  function remember(raw: RawRequest, key: string | undefined, { params }: AdmittedOperation, { params: { query } }: ResolvedOperation): void {
    if (raw.key !== undefined && key !== undefined) cache.remember(raw.key, { key, params, query, rawLength: raw.length });
  }

  /** A refusal (of the params guards, or of the persisted documents) or a document's errors: the whole answer. */
  function failed(gateway: GatewayRequest, params: { operationName?: string | null }, errors: readonly GraphQLError[], mediaType: string, document?: DocumentNode): DoorAnswer {
    gateway.observed.operations.set(gateway.observed, failedOperationOf(params, document));
    return answers.result(gateway, { errors }, mediaType);
  }

  return { known, answer };
}

/** Yoga's turn (undefined), told what the door did of the operation so that nothing is done twice. */
function handOn(gateway: GatewayRequest, operation: HandedOperation): undefined {
  gateway.handedOn = { batchChecked: false, operations: [operation] };
  return undefined;
}

export type SingleAnswer = ReturnType<typeof singleAnswer>;
