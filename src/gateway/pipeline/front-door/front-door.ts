import { isUtf8 } from 'node:buffer';
import { GraphQLError, type ExecutionResult } from 'graphql';
import { processRegularResult } from 'graphql-yoga';
import type { CORSOptions } from '@whatwg-node/server';
import { answerText, hasData, type PreparedOperation, type PreparedOperations, type PreparedRun } from '../../execution/forward/prepared-operations.ts';
import { operationNameOf, tellFinished, type RequestObserver } from '../../request/observed-request.ts';
import { memoized } from '../../../shared/memoized.ts';
import { estimateOperation } from '../../execution/shape/operation-cost.ts';
import type { OperationEstimate } from '../../request/operation-estimate.ts';
import type { CacheableParams, ResponseCache } from '../../execution/response-cache/response-cache.ts';
import { UNEXPECTED_ERROR, UNEXPECTED_RESULT, type EarlyAnswer } from '../../request/early-answer.ts';
import type { GatewayRequest } from '../../request/gateway-request.ts';
import type { GuardList, MaybePromise } from '../../request/guards.ts';
import { answerLanguageOf } from '../../request/languages-served.ts';
import { createGatewayRequest } from '../create-gateway-request.ts';
import type { DocumentPlanner } from '../document-planner.ts';
import { runHeadGuards, runOperationGuards, runParamsGuards } from '../guard-list.ts';
import { doorAnswers } from './door-answers.ts';
import type { DoorAnswer, DoorOutcome, DoorRequest } from './door-request.ts';
import { answerMediaType, contentTypeOf } from './media-type.ts';
import { isJson, paramsOfBody, paramsOfQueryString } from './request-params.ts';

/** What the door needs to answer planned operations itself. */
export interface DirectForwarding {
  /** The plans of the texts seen (execution/forward/prepared-operations.ts). */
  operations: PreparedOperations;
  /** Plans a text seen for the first time (document-planner.ts); without it, only texts yoga has planned are. */
  plan?: DocumentPlanner;
  /** Told every answer's errors before they are masked, to log their causes as Mesh does for yoga's (mesh-logger.ts). */
  onErrors?: (errors: readonly GraphQLError[]) => void;
}

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
}

/** How a plan is answered (the planner's contract): forwarded whole, or delegated through Mesh's own execution. */
type PlanStrategy = 'forwarded' | 'delegated';

/**
 * The front door, written once against a neutral request and answer (door-request.ts), which the
 * node:http listener and the fetch handler both go through (node-transport.ts, fetch-transport.ts):
 *
 * 1. `enter`: the request object, and the head guards (route, key, rate limit, declared length…)
 *    before any body is read: a refusal costs no reading or parsing. Apart, so that node:http's
 *    `100 Continue` goes out only once they let the request through.
 * 2. `serve`: the body, read once; the parameters; the response cache (a repeated request's bytes
 *    answered with no parsing); the params guards; the document's plan, made once per text
 *    (document-planner.ts); its strategy; the operation guards; the answer, masked, kept in the
 *    cache, in the media type negotiated, with CORS headers and validators.
 *
 * What the request is decides what yoga serves behind the door, with the request object made here
 * (head guards done, and for one operation its params guards and cache read too): other routes
 * (GraphiQL, /readiness, /metrics), batches, persisted-query hashes and trusted document ids, media
 * types other than JSON (streams, multipart), documents the planner leaves to yoga (errors to word,
 * incremental delivery, delegation until planned).
 */
export function createFrontDoor({ guards, cache, maskErrors, observers, cors, direct }: FrontDoorOptions) {
  const answers = doorAnswers({ observers, cors });

  /** The request object and the head guards' answer; never rejects (a guard that throws is a 500). */
  function enter(request: DoorRequest): { gateway: GatewayRequest; refused: MaybePromise<DoorAnswer | undefined> } {
    const { url, mountPath } = request;
    const { pathname: fullPath, hasQueryParameter } = urlFacts(url);
    const gateway = createGatewayRequest({
      head: request,
      pathname: mountPath === undefined ? fullPath : fullPath.slice(mountPath.length) || '/',
      mountPath,
      hasQueryParameter,
      socketAddress: request.socketAddress,
    });
    try {
      const answered = runHeadGuards(guards.head, gateway);
      if (answered instanceof Promise) return { gateway, refused: answered.then((answer) => answer && earlyAnswer(gateway, answer), () => failed(gateway)) };
      return { gateway, refused: answered && earlyAnswer(gateway, answered) };
    } catch {
      // A guard (an app's own, say) that throws is the gateway's fault, never the end of the process.
      return { gateway, refused: failed(gateway) };
    }
  }

  /** Everything after the head guards: the answer, or yoga's turn. Never rejects. */
  function serve(request: DoorRequest, gateway: GatewayRequest): DoorOutcome | Promise<DoorOutcome> {
    if ((!cache.enabled && !direct) || !gateway.graphql) return yogaOutcome(gateway);
    const mediaType = answerMediaType(request.headers.get('accept'));
    if (!mediaType || (!cors && request.headers.get('origin') !== null) || request.bodyTaken) return yogaOutcome(gateway);
    if (request.method === 'GET') {
      const query = request.url.indexOf('?');
      if (query < 0) return yogaOutcome(gateway);
      const search = request.url.slice(query + 1);
      const rawKey = rawKeyOf(gateway, 'GET', search);
      const known = rawKey === undefined ? undefined : answerKnown(gateway, rawKey, mediaType);
      if (known) return answered(gateway, known);
      return answerOrYoga(gateway, paramsOfQueryString(search), mediaType, rawKey, search.length);
    }
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

  /**
   * A POST's body, read whole: answered from its bytes alone when they were answered lately (a hit:
   * no parsing, hashing or promise), or parsed and served.
   */
  function serveBody(gateway: GatewayRequest, mediaType: string, body: Buffer | undefined): DoorOutcome | Promise<DoorOutcome> {
    if (!body) return { kind: 'unread', gateway };
    // Latin-1 maps each byte to one character: the bytes as they came, whatever they encode.
    const rawKey = body.length <= MAX_KNOWN_BODY_BYTES ? rawKeyOf(gateway, 'POST', body.toString('latin1')) : undefined;
    const known = rawKey === undefined ? undefined : answerKnown(gateway, rawKey, mediaType);
    if (known) return answered(gateway, known);
    return answerOrYoga(gateway, isUtf8(body) ? paramsOfBody(body) : undefined, mediaType, rawKey, body.length, body);
  }

  /** An answer given here, once it is made. */
  function answered(gateway: GatewayRequest, answer: DoorAnswer | Promise<DoorAnswer>): DoorOutcome | Promise<DoorOutcome> {
    if (!(answer instanceof Promise)) return answeredOutcome(gateway, answer);
    return answer.then(
      (given) => answeredOutcome(gateway, given),
      () => answeredOutcome(gateway, failed(gateway)),
    );
  }

  /** The request's answer, or yoga's turn when the door does not serve its parameters (undefined) or its plan. */
  function answerOrYoga(
    gateway: GatewayRequest,
    params: CacheableParams | undefined,
    mediaType: string,
    rawKey: string | undefined,
    rawLength: number,
    body?: Buffer,
  ): DoorOutcome | Promise<DoorOutcome> {
    if (!params) return yogaOutcome(gateway, body);
    return answer(gateway, params, mediaType, { key: rawKey, length: rawLength }).then(
      (given) => (given ? answeredOutcome(gateway, given) : yogaOutcome(gateway, body)),
      () => answeredOutcome(gateway, failed(gateway)),
    );
  }

  /** The request's raw key (response-cache.ts), when the cache is on. */
  function rawKeyOf({ head, readerLanguages }: GatewayRequest, method: string, raw: string): string | undefined {
    return cache.enabled ? cache.rawKeyOf(head.headers.get('authorization'), method, raw, readerLanguages.key) : undefined;
  }

  /**
   * The answer to a request whose exact bytes were answered from the cache or kept in it lately,
   * while its answer is held here: no parsing, no key, no promise; the params guards see the
   * parameters those bytes parsed to. Undefined for the request to be parsed and served as any.
   */
  function answerKnown(gateway: GatewayRequest, rawKey: string, mediaType: string): DoorAnswer | Promise<DoorAnswer> | undefined {
    const known = cache.recall(rawKey);
    const cached = known && cache.peek(known.key);
    if (!cached) return undefined;
    const refused = runParamsGuards(guards.params, gateway, known.params);
    return refused ? refuse(gateway, known.params, refused, mediaType) : answers.hit(gateway, cached, mediaType);
  }

  /** The answer, or undefined for yoga to serve the request. */
  async function answer(gateway: GatewayRequest, params: CacheableParams, mediaType: string, raw?: { key: string | undefined; length: number }): Promise<DoorAnswer | undefined> {
    const { observed, head } = gateway;
    const refused = runParamsGuards(guards.params, gateway, params);
    if (refused) return refuse(gateway, params, refused, mediaType);
    // The reader's languages as read once on arrival (bounded, normalized), never the raw header.
    const key = cache.enabled ? cache.keyOf(head.headers.get('authorization'), params, gateway.readerLanguages.key) : undefined;
    const cached = key === undefined ? undefined : await cache.read(key);
    // The same bytes again are answered by answerKnown, without parsing or keying.
    const remember = () => {
      if (raw?.key !== undefined && key !== undefined) cache.remember(raw.key, { key, params, rawLength: raw.length });
    };
    if (cached) {
      remember();
      return answers.hit(gateway, cached, mediaType);
    }
    const planned = planOf(params, head);
    if (!planned) {
      // Yoga's, with what was done here, so that nothing is done twice.
      gateway.paramsChecked = { cacheKey: key };
      return undefined;
    }
    const { run, operation, estimate, strategy } = planned;
    observed.lane = strategy === 'delegated' ? 'delegated' : 'direct';
    observed.operations.set(observed, { name: operationNameOf(operation.name?.value), type: 'query' });
    let result: ExecutionResult;
    try {
      // As in yoga, where the operation guards run just before execution: a refusal is the whole answer.
      const refusal = await runOperationGuards(guards.operation, gateway, estimate);
      result = refusal ? { errors: [refusal] } : await run({ request: head, gateway });
    } catch (error) {
      // Forwarding reports the source's failures in the answer; this is the gateway's own fault.
      result = { errors: [new GraphQLError('Unexpected error.', { originalError: error as Error })] };
    }
    if (!result.errors?.length && hasData(result)) {
      observed.result = result;
      // Kept with the language its texts were answered in (a linked answer's translations), for a hit's headers.
      const kept = key === undefined ? undefined : cache.keep(key, operation, result, answerLanguageOf(gateway.languagesServed));
      if (kept) {
        remember();
        return answers.hit(gateway, kept, mediaType, result);
      }
      return answers.answer(gateway, 200, { 'content-type': contentTypeOf(mediaType) }, answerText(result));
    }
    return resultAnswer(gateway, result, mediaType);
  }

  /** A refusal of the params guards, the whole answer. */
  function refuse(gateway: GatewayRequest, params: CacheableParams, refused: GraphQLError, mediaType: string): Promise<DoorAnswer> {
    gateway.observed.operations.set(gateway.observed, { name: operationNameOf(params.operationName) });
    return resultAnswer(gateway, { errors: [refused] }, mediaType);
  }

  /**
   * A result with errors, masked, its status, headers and body as yoga makes them from a result
   * (its result processor: the status an error asks for, the spec's rules per media type), so an
   * error reads the same whichever answers it.
   */
  async function resultAnswer(gateway: GatewayRequest, executed: ExecutionResult, mediaType: string): Promise<DoorAnswer> {
    // Mesh's own execution logs the causes of a delegated operation's errors itself.
    if (executed.errors?.length && gateway.observed.lane !== 'delegated') direct?.onErrors?.(executed.errors);
    const result = maskErrors(executed);
    // The observers (the request log's upstream causes) read the errors before masking, as yoga's do.
    gateway.observed.result = executed;
    const processed = processRegularResult(result, { Response } as unknown as Parameters<typeof processRegularResult>[1], mediaType);
    return answers.answer(gateway, processed.status, Object.fromEntries(processed.headers), await processed.text());
  }

  /** An answer of the head guards (a refusal, or /healthcheck): its body may still be on its way. */
  function earlyAnswer(gateway: GatewayRequest, { status, headers, body }: EarlyAnswer): DoorAnswer {
    return { ...answers.answer(gateway, status, headers, body), early: true };
  }

  /** A failure of the door's own or of a guard that threw (never expected): a 500 that says nothing of the cause. */
  function failed(gateway: GatewayRequest): DoorAnswer {
    gateway.observed.result = UNEXPECTED_RESULT;
    return earlyAnswer(gateway, UNEXPECTED_ERROR);
  }

  /**
   * The plan of this request's operation, bound to its variables: found among the texts seen, or
   * made now for a text seen for the first time; undefined leaves it to yoga (no plan, or variables
   * that do not coerce: graphql-js words the error).
   */
  function planOf(params: CacheableParams, request: GatewayRequest['head']): { run: PreparedRun; operation: PreparedOperation['operation']; estimate: OperationEstimate; strategy: PlanStrategy } | undefined {
    if (!direct) return undefined;
    const found = direct.operations.find(params.query, params.operationName);
    const prepared: (PreparedOperation & { strategy?: PlanStrategy }) | null | undefined = found === undefined ? direct.plan?.(params.query, params.operationName, request) : found;
    if (!prepared) return undefined;
    const variables = (params.variables ?? undefined) as Record<string, unknown> | undefined;
    const estimate = estimateOperation(prepared.schema, prepared.document, params.operationName, variables);
    if (!estimate?.coercedVariables) return undefined;
    const run = prepared.bind(variables, estimate.coercedVariables);
    return run && { run, operation: prepared.operation, estimate, strategy: prepared.strategy ?? 'forwarded' };
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

/** A request URL's path (as WHATWG URL parsing normalizes it, as yoga sees it) and whether it has a `query` parameter. */
const urlFacts = memoized((url): { pathname: string; hasQueryParameter: boolean } => {
  try {
    const parsed = new URL(url);
    return { pathname: parsed.pathname, hasQueryParameter: parsed.searchParams.has('query') };
  } catch {
    return { pathname: '', hasQueryParameter: false };
  }
});
