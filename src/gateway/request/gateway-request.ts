import type { ObservedRequest, RequestHead } from './observed-request.ts';
import type { CachedAnswer } from './cached-answer.ts';
import type { LanguagesServed } from './answer-language.ts';
import type { ReaderLanguages } from './reader-languages.ts';
import type { Route } from './route.ts';

/**
 * One client request as the gateway's pipeline sees it, created once when the request arrives (by the
 * front door, through either of its transports, or by the yoga adapter should yoga be reached
 * without it) and carried on yoga's server context (`context.gateway`) to everything after:
 * guards, execution, the upstream steps and the observers. Per-request state lives here, never in
 * module-level tables keyed by the request.
 */
export interface GatewayRequest {
  /** Method, absolute URL and headers, as observers and guards read them. */
  readonly head: RequestHead;
  /** The path the route table matches (relative to where the gateway is mounted). */
  readonly pathname: string;
  /**
   * Where an app mounted the gateway (Express or Connect `app.use('/api/graphql', gateway.listener)`),
   * e.g. `/api/graphql`; undefined when it serves a whole server. GraphQL is served at the mount path.
   */
  readonly mountPath: string | undefined;
  /** Whether the URL asks for an operation: a `query` parameter, or a persisted document's hash or id (a GET that is no GraphiQL page). */
  readonly hasQueryParameter: boolean;
  /** The peer of the connection, when the gateway runs on node:http. */
  readonly socketAddress: string | undefined;
  /** What the path is for; undefined until the route guard ran (and for a 404). */
  route?: Route;
  /**
   * Whether it asks for GraphQL: the endpoint, not a CORS preflight, and not a GET without an
   * operation (the GraphiQL page). The key check, rate limits, request log and metrics read this.
   */
  graphql: boolean;
  /** Who is calling, for rate limits: `key:<hash>` or `address:<ip>` (client-identity.ts). */
  identity: string;
  /** False when keys are required and none of them was presented. */
  keyAccepted: boolean;
  /** What the request log, the metrics and the traces know of it. */
  observed: ObservedRequest;
  /** Set once the head guards have run, so the second adapter a request passes through does not run them again. */
  headChecked: boolean;
  /** The response cache's answers for this request's operations, when yoga served it (use-response-cache.ts). */
  responseCache?: { operations: number; answers: CachedAnswer[] };
  /**
   * Set by the front door (pipeline/front-door/) when it read this request's one operation, ran the
   * params guards on it and looked it up in the response cache, then handed it on to yoga: yoga's
   * stages do not run those guards or read the cache again, and keep the answer under `cacheKey`.
   */
  paramsChecked?: { cacheKey: string | undefined };
  /**
   * The reader's languages, from `Accept-Language`, read once when the request arrives (bounded:
   * translation/accept-language.ts): what translation fields without `to:` negotiate with, and what
   * cached answers vary by.
   */
  readonly readerLanguages: ReaderLanguages;
  /** What the translation fields answered in, noted as they answer: `Content-Language` and `Vary` (languages-served.ts). */
  languagesServed?: LanguagesServed;
}

/** What a request is created from: the parts of the head every adapter can read. */
export interface RequestArrival {
  head: RequestHead;
  pathname: string;
  mountPath?: string;
  hasQueryParameter: boolean;
  socketAddress: string | undefined;
}

/** The request a yoga server context or an execution context carries, if any. */
export function gatewayRequestOf(context: unknown): GatewayRequest | undefined {
  return (context as { gateway?: GatewayRequest } | null | undefined)?.gateway;
}
