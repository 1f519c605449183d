import type { GraphQLError } from 'graphql';
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
   * Set by the front door (pipeline/front-door/) when it hands on to yoga a request whose operations
   * it has begun (a document it does not plan): what it did already, so that yoga's stages do none
   * of it twice (yoga-adapter.ts, persisted-documents.ts, use-response-cache.ts).
   */
  handedOn?: HandedOn;
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

/** What the front door did for a request before handing it on to yoga (GatewayRequest.handedOn). */
export interface HandedOn {
  /** Whether the batch guards ran (a batch). */
  batchChecked: boolean;
  /** Each operation, in the order of the request (one, or a batch's). */
  operations: HandedOperation[];
  /** The operations' parameters as yoga parsed them, in the same order (found by handedOperationOf). */
  parsed?: readonly unknown[];
}

/** One operation the front door began before handing it on: everything up to its plan. */
export interface HandedOperation {
  /** The params guards' refusal, or the error resolving its persisted document met: its whole answer. */
  refusal?: GraphQLError;
  /** Its parameters with the persisted document resolved (as yoga's persisted documents would make them); undefined: as sent. */
  resolved?: { query: string; variables?: unknown; operationName?: string | null };
  /** Whether it was looked up in the response cache (a miss), under `cacheKey`: not read again, kept there. */
  lookedUp: boolean;
  cacheKey?: string;
}

/** Where yoga's stages find an operation's HandedOperation: on the operation's own context (a batch's each have one). */
const HANDED_OPERATION = Symbol('handed operation');

/**
 * The HandedOperation of the operation yoga parsed as `params`, put on its context for the stages
 * after (whose parameters may have been replaced by then); undefined when the door did not begin it.
 */
export function takeHandedOperation(gateway: GatewayRequest, params: unknown, context: object): HandedOperation | undefined {
  const handedOn = gateway.handedOn;
  const index = handedOn?.parsed ? handedOn.parsed.indexOf(params) : -1;
  const handed = index < 0 ? undefined : handedOn!.operations[index];
  if (handed) (context as { [HANDED_OPERATION]?: HandedOperation })[HANDED_OPERATION] = handed;
  return handed;
}

/** The HandedOperation takeHandedOperation put on an operation's context, if any. */
export function handedOperationOf(context: unknown): HandedOperation | undefined {
  return (context as { [HANDED_OPERATION]?: HandedOperation } | null | undefined)?.[HANDED_OPERATION];
}
