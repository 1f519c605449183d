import { getCORSHeadersByRequestAndOptions, type CORSOptions } from '@whatwg-node/server';
import type { ExecutionResult, GraphQLError } from 'graphql';
import { REQUEST_ID_HEADER, tellFinished, type RequestObserver } from '../../request/observed-request.ts';
import { cacheControlOf, cachingHeaders, matchesEtag, secondsLeft } from '../../execution/response-cache/response-cache.ts';
import type { CachedAnswer } from '../../request/cached-answer.ts';
import type { GatewayRequest } from '../../request/gateway-request.ts';
import { answerLanguageHeaders, answerLanguageOf } from '../../request/languages-served.ts';
import type { DoorAnswer } from './door-request.ts';
import { contentTypeOf } from './media-type.ts';
import { resultHead, resultText } from './result-answer.ts';

export interface DoorAnswersOptions {
  observers: RequestObserver[];
  /** The CORS options: a browser's request (with an `Origin`) gets their headers on every answer. */
  cors?: CORSOptions;
  /** The one masking step every answer gets (error-masking.ts). */
  maskErrors: (result: ExecutionResult) => ExecutionResult;
  /** Told every answer's errors before they are masked, to log their causes as Mesh does for yoga's (mesh-logger.ts). */
  onErrors?: (errors: readonly GraphQLError[]) => void;
}

/** What a batch's answer is validated by: the etag of its answers together, and when the first of them expires. */
export type Validator = Pick<CachedAnswer, 'etag' | 'expiresAt' | 'contentLanguage' | 'negotiated'>;

/** What a hit is recorded as for the observers: an answer without errors. */
const ANSWER_WITHOUT_ERRORS = Object.freeze({});

/**
 * How the front door turns what it decided into an answer, for every answer it gives: the request
 * id, the CORS headers, the validators (ETag and a 304 for `If-None-Match`), `Content-Language` and
 * `Vary`, the length; the observers are told each answer as it is made.
 */
export function doorAnswers({ observers, cors, maskErrors, onErrors }: DoorAnswersOptions) {
  /** An answer with its head completed; a 304 when `If-None-Match` names the cached answer it carries. */
  function answer(
    { observed, head, languagesServed }: GatewayRequest,
    status: number,
    headers: Record<string, string | number>,
    body: string | Buffer | null,
    validator?: { cached: Validator | undefined; ifNoneMatch: string | undefined },
  ): DoorAnswer {
    const all: Record<string, string | number> = { ...headers };
    const cached = validator?.cached;
    const notModified = cached !== undefined && matchesEtag(validator?.ifNoneMatch, cached.etag);
    // In yoga's order: its CORS step sets its headers over the answer's, then the response cache's
    // plugin sets its own and adds `Authorization` to whatever `Vary` already says.
    const corsHeaders = cors && head.headers.get('origin') !== null ? getCORSHeadersByRequestAndOptions(head as unknown as Request, cors) : null;
    for (const name in corsHeaders) all[name.toLowerCase()] = corsHeaders[name];
    // With Content-Language and Vary: Accept-Language when the reader's languages chose its texts.
    const answerHeaders = cached ? cachingHeaders(cached.etag, secondsLeft(cached), cached) : answerLanguageHeaders(answerLanguageOf(languagesServed));
    for (const [name, value] of Object.entries(answerHeaders)) {
      all[name] = name === 'vary' && all.vary ? `${all.vary}, ${value}` : value;
    }
    all[REQUEST_ID_HEADER] = observed.id;
    // A 304 keeps the answer's content type and length, as yoga's does (the headers of the 200 it
    // stands for), with no body.
    if (body !== null) all['content-length'] = Buffer.byteLength(body);
    if (notModified) status = 304;
    if (observed.graphql) tellFinished(observers, observed, status);
    return { status, headers: all, body: notModified || head.method === 'HEAD' ? null : body };
  }

  /**
   * A cached answer (a hit, or one just kept), told to the observers first, with the head it was
   * kept with: per request only its content type, seconds left and request id are added, and its
   * bytes go out as kept; a 304 when `If-None-Match` names it. A browser's request, whose CORS
   * headers depend on it, gets them through answer().
   */
  function hit(gateway: GatewayRequest, cached: CachedAnswer, mediaType: string, result: ExecutionResult = ANSWER_WITHOUT_ERRORS): DoorAnswer {
    const { observed, head } = gateway;
    if (result === ANSWER_WITHOUT_ERRORS) {
      observed.lane = 'cache';
      observed.operations.set(observed, { name: cached.operationName, type: 'query' });
    }
    observed.result = result;
    const ifNoneMatch = head.headers.get('if-none-match') ?? undefined;
    if (cors && head.headers.get('origin') !== null) {
      return answer(gateway, 200, { 'content-type': contentTypeOf(mediaType) }, cached.body, { cached, ifNoneMatch });
    }
    const notModified = ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, cached.etag);
    const status = notModified ? 304 : 200;
    if (observed.graphql) tellFinished(observers, observed, status);
    // The head as kept for this media type, with the two values a hit's own: seconds left and request id.
    const headers = headOf(cached, mediaType).slice();
    headers[headers.length - 3] = cacheControlOf(secondsLeft(cached));
    headers[headers.length - 1] = observed.id;
    return { status, headers, body: notModified || head.method === 'HEAD' ? null : cached.body };
  }

  /**
   * A result with errors, masked, its status, headers and body by the GraphQL over HTTP spec's rules
   * (result-answer.ts), so an error reads the same whichever way answers it.
   */
  function result(gateway: GatewayRequest, executed: ExecutionResult, mediaType: string): DoorAnswer {
    const shown = masked(gateway, executed);
    // The observers (the request log's upstream causes) read the errors before masking, as yoga's do.
    gateway.observed.result = executed;
    const { status, headers } = resultHead(shown, mediaType);
    headers['content-type'] = contentTypeOf(mediaType);
    return answer(gateway, status, headers, resultText(shown));
  }

  /** A result as the client gets it: its errors' causes told (Mesh's own execution logs a delegated operation's itself), then masked. */
  function masked(gateway: GatewayRequest, executed: ExecutionResult, delegated = gateway.observed.lane === 'delegated'): ExecutionResult {
    if (executed.errors?.length && !delegated) onErrors?.(executed.errors);
    return maskErrors(executed);
  }

  return { answer, hit, result, masked };
}

export type DoorAnswers = ReturnType<typeof doorAnswers>;

/**
 * A hit's head in `mediaType` as writeHead takes it, made once per cached answer and media type:
 * the content type, what the answer keeps (cached-answer.ts), then `Cache-Control` and the request
 * id, whose values (last but two, last) each hit fills in on its copy.
 */
function headOf(cached: CachedAnswer, mediaType: string): readonly string[] {
  const heads = (cached.heads ??= new Map());
  let head = heads.get(mediaType);
  if (head === undefined) {
    head = ['content-type', contentTypeOf(mediaType), ...cached.headers, 'cache-control', '', REQUEST_ID_HEADER, ''];
    heads.set(mediaType, head);
  }
  return head;
}
