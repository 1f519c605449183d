import { isUtf8 } from 'node:buffer';
import type { ExecutionResult } from 'graphql';
import type { CORSOptions } from '@whatwg-node/server';
import { tellFinished, type RequestObserver } from '../../request/observed-request.ts';
import type { ResponseCache } from '../../execution/response-cache/response-cache.ts';
import type { PersistedDocuments } from '../../guards/persisted-documents.ts';
import type { GatewayRequest } from '../../request/gateway-request.ts';
import type { GuardList } from '../../request/guards.ts';
import { batchAnswer } from './batch-answer.ts';
import { doorAnswers } from './door-answers.ts';
import { doorEntrance } from './door-entrance.ts';
import type { DoorAnswer, DoorOutcome, DoorRequest } from './door-request.ts';
import { answerMediaType } from './media-type.ts';
import { operationPath, type DirectForwarding } from './operation-path.ts';
import { isJson, paramsOfBody, paramsOfQueryString, type DoorParams } from './request-params.ts';
import { singleAnswer, type RawRequest } from './single-answer.ts';

export type { DirectForwarding } from './operation-path.ts';

export interface FrontDoorOptions {
  /** Every check a request goes through (guard-list.ts), each run once, here or (for what yoga serves) in yoga. */
  guards: GuardList;
  cache: ResponseCache;
  /** The one masking step every answer gets (error-masking.ts). */
  maskErrors: (result: ExecutionResult) => ExecutionResult;
  /** The request log, metrics and traces, told about each answer given here as about any. */
  observers: RequestObserver[];
  /** The CORS options; without them, every GraphQL request with an `Origin` is yoga's. */
  cors?: CORSOptions;
  /** Answering planned operations; without it, only cache hits are answered here. */
  direct?: DirectForwarding;
  /** Persisted-query hashes and trusted document ids (guards/persisted-documents.ts); without them, such requests are yoga's. */
  persisted?: PersistedDocuments;
  /** Most operations in one batch (MAX_BATCH_OPERATIONS); 0 refuses batches; unset, batches are yoga's. */
  maxBatchOperations?: number;
}

/**
 * The front door, written once against a neutral request and answer (door-request.ts), which the
 * node:http listener and the fetch handler both go through (node-transport.ts, fetch-transport.ts):
 *
 * 1. `enter` (door-entrance.ts): the request object, and the head guards (route, key, rate limit, declared length…)
 *    before any body is read: a refusal costs no reading or parsing. Apart, so that node:http's
 *    `100 Continue` goes out only once they let the request through.
 * 2. `serve`: the body, read once; the parameters; a repeated request's bytes answered from the
 *    response cache with no parsing; then one operation (single-answer.ts) or a batch
 *    (batch-answer.ts), each operation taking the same steps (operation-path.ts): params guards,
 *    its persisted document resolved, one cache read, its plan (made once per text), the operation
 *    guards, its answer masked, kept, in the media type negotiated, with CORS headers and validators.
 *
 * What the request is decides what yoga serves behind the door, with the request object made here
 * (head guards done, and for one operation its params guards and cache read too): other routes
 * (GraphiQL, /readiness, /metrics), media types other than JSON (streams, multipart), documents the
 * planner leaves to yoga (errors to word, introspection, incremental delivery, mutations).
 */
export function createFrontDoor({ guards, cache, maskErrors, observers, cors, direct, persisted, maxBatchOperations }: FrontDoorOptions) {
  const answers = doorAnswers({ observers, cors, maskErrors, onErrors: direct?.onErrors });
  const path = operationPath({ guards, cache, direct, persisted });
  const single = singleAnswer({ guards, cache, path, answers });
  const batch = direct && maxBatchOperations !== undefined ? batchAnswer({ guards, cache, path, answers, maxOperations: maxBatchOperations }) : undefined;
  const { enter, failed } = doorEntrance({ guards, answers });

  /** Everything after the head guards: the answer, or yoga's turn. Never rejects. */
  function serve(request: DoorRequest, gateway: GatewayRequest): DoorOutcome | Promise<DoorOutcome> {
    if ((!cache.enabled && !direct) || !gateway.graphql) return yogaOutcome(gateway);
    const mediaType = answerMediaType(request.headers.get('accept'));
    if (!mediaType || (!cors && request.headers.get('origin') !== null) || request.bodyTaken) return yogaOutcome(gateway);
    if (request.method === 'GET') return serveQueryString(gateway, request.url, mediaType);
    // A body of undeclared length that the transport does not bound itself (node:http's chunked) is
    // yoga's, which reads it bounded; a declared one was checked against MAX_BODY_BYTES by the head guards.
    if (request.method !== 'POST' || !request.hasBody || !isJson(request.headers.get('content-type'))) return yogaOutcome(gateway);
    return request.readBody().then(
      (body) => {
        try {
          return serveBody(gateway, mediaType, body);
        } catch {
          return answeredOutcome(gateway, failed(gateway));
        }
      },
      () => answeredOutcome(gateway, failed(gateway)),
    );
  }

  /** A GET: its query string's bytes answered as known, or its parameters served. */
  function serveQueryString(gateway: GatewayRequest, url: string, mediaType: string): DoorOutcome | Promise<DoorOutcome> {
    const query = url.indexOf('?');
    if (query < 0) return yogaOutcome(gateway);
    const search = url.slice(query + 1);
    const rawKey = rawKeyOf(gateway, 'GET', search);
    const known = rawKey === undefined ? undefined : single.known(gateway, rawKey, mediaType);
    if (known) return answeredOutcome(gateway, known);
    return answerOrYoga(gateway, paramsOfQueryString(search), mediaType, { key: rawKey, length: search.length });
  }

  /**
   * A POST's body, read whole: answered from its bytes alone when they were answered lately (a hit:
   * no parsing, hashing or promise), or parsed and served: one operation, or a batch.
   */
  function serveBody(gateway: GatewayRequest, mediaType: string, body: Buffer | undefined): DoorOutcome | Promise<DoorOutcome> {
    if (!body) return { kind: 'unread', gateway };
    // Latin-1 maps each byte to one character: the bytes as they came, whatever they encode.
    const rawKey = body.length <= MAX_KNOWN_BODY_BYTES ? rawKeyOf(gateway, 'POST', body.toString('latin1')) : undefined;
    const known = rawKey === undefined ? undefined : single.known(gateway, rawKey, mediaType);
    if (known) return answeredOutcome(gateway, known);
    const parsed = isUtf8(body) ? paramsOfBody(body) : undefined;
    if (parsed?.batch) {
      if (!batch) return yogaOutcome(gateway, body);
      return settled(gateway, batch.answer(gateway, parsed.operations, mediaType), body);
    }
    return answerOrYoga(gateway, parsed?.params, mediaType, { key: rawKey, length: body.length }, body);
  }

  /** The request's answer, or yoga's turn when the door does not serve its parameters (undefined) or its plan. */
  function answerOrYoga(gateway: GatewayRequest, params: DoorParams | undefined, mediaType: string, raw: RawRequest, body?: Buffer): DoorOutcome | Promise<DoorOutcome> {
    if (!params) return yogaOutcome(gateway, body);
    return settled(gateway, single.answer(gateway, params, mediaType, raw), body);
  }

  /** The outcome of an answer on its way: given here, or (undefined) yoga's, with the body read. */
  function settled(gateway: GatewayRequest, answer: Promise<DoorAnswer | undefined>, body: Buffer | undefined): Promise<DoorOutcome> {
    return answer.then(
      (given) => (given ? answeredOutcome(gateway, given) : yogaOutcome(gateway, body)),
      () => answeredOutcome(gateway, failed(gateway)),
    );
  }

  /** The request's raw key (response-cache.ts), when the cache is on. */
  function rawKeyOf({ head, readerLanguages }: GatewayRequest, method: string, raw: string): string | undefined {
    return cache.enabled ? cache.rawKeyOf(head.headers.get('authorization'), method, raw, readerLanguages.key) : undefined;
  }

  /** A request its client gave up on mid-body: recorded, with nobody to answer. */
  function abandoned(gateway: GatewayRequest): void {
    tellFinished(observers, gateway.observed, CLIENT_CLOSED_REQUEST);
  }

  return { enter, serve, failed, abandoned };
}

export type FrontDoor = ReturnType<typeof createFrontDoor>;

/** The request for yoga to serve, with its body when the door read it. */
function yogaOutcome(gateway: GatewayRequest, body?: Buffer): DoorOutcome {
  return { kind: 'yoga', gateway, body };
}

function answeredOutcome(gateway: GatewayRequest, answer: DoorAnswer): DoorOutcome {
  return { kind: 'answer', gateway, answer };
}

/**
 * The longest body looked up by its bytes (answerKnown): every body is hashed for it, hit or miss,
 * and a repeated query's body is a few hundred bytes; a larger one is parsed and keyed as any.
 */
const MAX_KNOWN_BODY_BYTES = 64 * 1024;

/** The status a request is recorded with when its client went away before sending all of its body (nginx's "client closed request"). */
const CLIENT_CLOSED_REQUEST = 499;
