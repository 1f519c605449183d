import type { MeshFetch } from '@graphql-mesh/types';
import type { ServiceName } from '../errors.ts';
import type { RequestHead } from '../observability/observed-request.ts';
import type { UpstreamAnswer } from './upstream-answer.ts';
import { answerOf } from './upstream-fetch.ts';

type MeshFetchInit = Parameters<MeshFetch>[1];

/**
 * One HTTP call to an upstream, as the gateway's upstream steps see it. The facts every step needs
 * (which service, whether the call only reads) are worked out once, where the call enters, and carried.
 */
export interface UpstreamCall {
  service: ServiceName;
  url: string;
  init: NonNullable<MeshFetchInit>;
  /**
   * Mesh's context of the client request the call is made for (holds yoga's `request` and the
   * gateway's request object, `gateway`), or the node:http adapter's own `{ request, gateway }` for a
   * query it forwards itself; absent for calls of no request.
   */
  context: unknown;
  info: unknown;
  /** Safe to repeat and to reuse: every translation call, and problems queries (never mutations). */
  readOnly: boolean;
  /**
   * Tried once whatever `readOnly` says: a circuit breaker's probe (circuit-breaker.ts), which would
   * otherwise send a service still in trouble several attempts where one tells.
   */
  singleAttempt?: boolean;
  /** Puts the call on the wire (Mesh's fetch, as any plugin of .meshrc.yaml wraps it): the end of the steps. */
  network: MeshFetch;
}

/** Sends the call on (to the next step, and at the end to the network). */
export type SendUpstream = (call: UpstreamCall) => Promise<UpstreamAnswer>;

/** One concern of upstream calls (cache, error shaping, retries, observation), around the steps after it. */
export type UpstreamStep = (call: UpstreamCall, next: SendUpstream) => Promise<UpstreamAnswer>;

/** `steps[0]` outermost; the call's own `network` fetch at the end. */
export function composeSteps(steps: UpstreamStep[]): SendUpstream {
  const network: SendUpstream = (call) => answerOf(call.network, call.url, call.init, call.context, call.info);
  return steps.reduceRight<SendUpstream>((next, step) => (call) => step(call, next), network);
}

/** The client request behind an upstream call (Mesh puts yoga's context on the call). */
export function clientRequestOf(call: Pick<UpstreamCall, 'context'>): RequestHead | undefined {
  return (call.context as { request?: RequestHead } | undefined)?.request;
}
