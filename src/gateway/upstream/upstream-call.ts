import type { MeshFetch } from '@graphql-mesh/types';
import type { ServiceName } from '../errors.ts';
import type { RequestHead } from '../request/observed-request.ts';
import type { UpstreamAnswer } from './upstream-answer.ts';
import { answerOf } from './upstream-fetch.ts';

type MeshFetchInit = Parameters<MeshFetch>[1];

/** Every service the gateway calls: the upstream steps are composed once for each. */
export const UPSTREAM_SERVICES: readonly ServiceName[] = ['problems', 'translation'];

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

/**
 * Sends the call on (to the next step, and at the end to the network). Never throws: a failure is
 * a rejected promise, so a step that only looks at the outcome (`.then(answered, failed)`) sees it.
 */
export type SendUpstream = (call: UpstreamCall) => Promise<UpstreamAnswer>;

/** One concern of upstream calls (the circuit breaker, say), written per call, around the steps after it. */
export type UpstreamStep = (call: UpstreamCall, next: SendUpstream) => Promise<UpstreamAnswer>;

/**
 * One concern of upstream calls, composed once per service: given the service and the steps after
 * it (`next`), what sends that service's calls. What depends only on the service (its budget, its
 * size bound, whether the step applies at all) is decided here, once, and a step with nothing to do
 * for a service returns `next` itself, which costs that service's calls nothing.
 */
export interface ServiceStep {
  forService(service: ServiceName, next: SendUpstream): SendUpstream;
}

/** An entry of the ordered list of upstream steps (upstream-calls.ts): either form. */
export type UpstreamStepEntry = UpstreamStep | ServiceStep;

/** The network at the end of every chain: the call's own fetch. */
const network: SendUpstream = (call) => answerOf(call.network, call.url, call.init, call.context, call.info);

/**
 * The steps composed once into one chain per service, `steps[0]` outermost and the call's own
 * `network` fetch at the end. Composing happens here, when the list is built, never per call: a
 * call runs the links of its service's chain and nothing else.
 */
export function composeStepsByService(steps: readonly UpstreamStepEntry[]): Record<ServiceName, SendUpstream> {
  const chainOf = (service: ServiceName) =>
    steps.reduceRight<SendUpstream>((next, step) => (typeof step === 'function' ? (call) => step(call, next) : step.forService(service, next)), network);
  return Object.fromEntries(UPSTREAM_SERVICES.map((service) => [service, chainOf(service)])) as Record<ServiceName, SendUpstream>;
}

/** The chains of composeStepsByService behind one entry, for callers that carry the service on the call. */
export function composeSteps(steps: readonly UpstreamStepEntry[]): SendUpstream {
  const chains = composeStepsByService(steps);
  return (call) => chains[call.service](call);
}

/** The client request behind an upstream call (Mesh puts yoga's context on the call). */
export function clientRequestOf(call: Pick<UpstreamCall, 'context'>): RequestHead | undefined {
  return (call.context as { request?: RequestHead } | undefined)?.request;
}
