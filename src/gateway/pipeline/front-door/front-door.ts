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
import type { DoorOutcome, DoorRequest } from './door-request.ts';
import { answerMediaType } from './media-type.ts';
import { operationPath, type DirectForwarding } from './operation-path.ts';
import { isJson } from './request-params.ts';
import { singleAnswer } from './single-answer.ts';
import { answeredOutcome, bytesAnswer, yogaOutcome } from './bytes-answer.ts';

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
 * 2. `serve`: what the request is decides whether the door serves it (straightPathMediaType); then
 *    its bytes, read once (bytes-answer.ts): a repeated request's bytes answered from the response
 *    cache with no parsing; else one operation (single-answer.ts) or a batch (batch-answer.ts),
 *    each operation taking the same steps (operation-path.ts): params guards, its persisted
 *    document resolved, one cache read, its plan (made once per text) or its document's errors,
 *    the operation guards, its answer masked, kept, in the media type negotiated, with CORS headers
 *    and validators.
 *
 * What the request is decides what yoga serves behind the door, with the request object made here
 * (head guards done, and what was done of its operations on `handedOn`): other routes (GraphiQL,
 * /readiness, /metrics), media types other than JSON (streams, multipart), documents the planner
 * leaves to yoga (introspection, incremental delivery, mutations), variables that do not coerce.
 */
export function createFrontDoor({ guards, cache, maskErrors, observers, cors, direct, persisted, maxBatchOperations }: FrontDoorOptions) {
  const answers = doorAnswers({ observers, cors, maskErrors, onErrors: direct?.onErrors });
  const path = operationPath({ guards, cache, direct, persisted });
  const single = singleAnswer({ guards, cache, path, answers });
  const batch = direct && maxBatchOperations !== undefined ? batchAnswer({ guards, cache, path, answers, maxOperations: maxBatchOperations }) : undefined;
  const { enter, failed } = doorEntrance({ guards, answers });
  const bytes = bytesAnswer({ cache, single, batch, failed });
  const servesAny = cache.enabled || direct !== undefined;

  /** Everything after the head guards: the answer, or yoga's turn. Never rejects. */
  function serve(request: DoorRequest, gateway: GatewayRequest): DoorOutcome | Promise<DoorOutcome> {
    const mediaType = servesAny ? straightPathMediaType(request, gateway, cors !== undefined) : undefined;
    if (mediaType === undefined) return yogaOutcome(gateway);
    if (request.method === 'GET') return bytes.ofQueryString(gateway, request.url, mediaType);
    return request.readBody().then(
      (body) => {
        if (!body) return { kind: 'unread', gateway };
        try {
          return bytes.ofBody(gateway, mediaType, body);
        } catch {
          return answeredOutcome(gateway, failed(gateway));
        }
      },
      () => answeredOutcome(gateway, failed(gateway)),
    );
  }

  /** A request its client gave up on mid-body: recorded, with nobody to answer. */
  function abandoned(gateway: GatewayRequest): void {
    tellFinished(observers, gateway.observed, CLIENT_CLOSED_REQUEST);
  }

  return { enter, serve, failed, abandoned };
}

export type FrontDoor = ReturnType<typeof createFrontDoor>;

/**
 * The media type the straight path answers a request in, or undefined when the request is yoga's
 * by what it is: no GraphQL request (another route), a media type the door does not speak, a
 * browser's request without CORS options to answer it with, a body some middleware took, a method
 * other than GET and POST, a POST without a JSON body of declared length (node:http's chunked is
 * yoga's, which reads it bounded; a declared one was checked against MAX_BODY_BYTES by the head
 * guards).
 */
function straightPathMediaType(request: DoorRequest, gateway: GatewayRequest, corsAnswered: boolean): string | undefined {
  if (!gateway.graphql || request.bodyTaken || (!corsAnswered && request.headers.get('origin') !== null)) return undefined;
  const mediaType = answerMediaType(request.headers.get('accept'));
  if (mediaType === undefined || request.method === 'GET') return mediaType;
  return request.method === 'POST' && request.hasBody && isJson(request.headers.get('content-type')) ? mediaType : undefined;
}

/** The status a request is recorded with when its client went away before sending all of its body (nginx's "client closed request"). */
const CLIENT_CLOSED_REQUEST = 499;
