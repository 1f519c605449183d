import type { MeshFetch } from '@graphql-mesh/types';
import type { ServiceName } from '../errors.ts';
import type { RequestHead } from '../request/observed-request.ts';
import type { UpstreamAnswer } from './upstream-answer.ts';

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
  /**
   * The request as sent; its `signal` is the engine's, aborted when the engine is disposed. Never
   * the client's: a call answers whoever waits for it (identical calls in flight share one, and the
   * problems cache keeps its answer for the next), a mutation cut off half-way would leave the
   * client not knowing what the service did, and the call's time budget already bounds what a
   * client that left costs. So a call, Mesh's or forwarded, ends with its answer, its budget or its
   * engine (upstream-calls.ts, composition/engine.ts).
   */
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
   * Tried once whatever `readOnly` says (a circuit breaker's probe, which would otherwise send a
   * service still in trouble several attempts where one tells).
   */
  singleAttempt?: boolean;
  /** Puts the call on the wire (Mesh's fetch, as any plugin of .meshrc.yaml wraps it): the end of the steps. */
  network: MeshFetch;
}

/**
 * Sends a call through a service's steps and on to the network. Never throws: a failure is a
 * rejected promise. The answer handed back has its body read when the list has a step that reads
 * it (the error step does, in the gateway's list).
 */
export type SendUpstream = (call: UpstreamCall) => Promise<UpstreamAnswer>;

/**
 * What one step does to one service's calls, decided once, when the list is composed
 * (ServiceStep.forService). A step has the hooks of its concern and no other; each hook acts at one
 * depth of a call, and the list goes outermost first (the composer refuses a list out of that
 * order), so the list's order is the order the steps meet a call, as in a chain of wrappers. Every
 * hook but `around` is synchronous: a call waits only for the network, its body and, when a step
 * asks, a store or a retry's backoff (composed-call.ts).
 */
export interface CallHooks {
  /**
   * Depth 0, around the whole call: answers it itself (a kept answer, a call in flight shared) or
   * sends it on through `rest`, the steps after this one. With nothing to do for a call, returns
   * `rest(call)` itself: no promise of its own.
   */
  around?(call: UpstreamCall, rest: SendUpstream): Promise<UpstreamAnswer>;
  /**
   * Depth 1, before anything is sent (once, whatever the attempts): may refuse the call by
   * throwing. What it returns is handed back to `settled`; `singleAttempt` on it sends the call once.
   */
  enter?(call: UpstreamCall): CallTicket | undefined;
  /**
   * Depth 1, once the call is over: its answer as read and shaped, or the error it failed with (as
   * shaped). Only looks: the outcome goes on as it was.
   */
  settled?(call: UpstreamCall, ticket: CallTicket | undefined, answer: UpstreamAnswer | undefined, error: unknown): void;
  /** Depth 2, the final answer, read: what a call's outcome is (error shaping). At most one per list. */
  read?: AnswerReader;
  /** Depth 3, the final answer's head, before its body is read: the answer to read (bounded) or a refusal. */
  bound?(answer: UpstreamAnswer): UpstreamAnswer | Promise<never>;
  /** Depth 4, the attempts: the call's time budget and when to try again (retries). At most one per list. */
  attempts?: AttemptPolicy;
  /**
   * Depth 5, each attempt as it goes on the wire: may add headers to it (`headers` is the attempt's
   * own copy); what it returns is told how the attempt ended (observation).
   */
  attempt?(call: UpstreamCall, headers: Record<string, string>): AttemptWatch | undefined;
}

/** What `enter` hands back to its own step's `settled`. */
export interface CallTicket {
  /** Send the call once, whatever `readOnly` says. */
  readonly singleAttempt?: boolean;
}

/** Depth 2: turns the final outcome into the call's (the error step). */
export interface AnswerReader {
  /**
   * The final answer, its body read (or `readError`, the reading's failure): the answer handed
   * on, or a throw of the call's error.
   */
  answered(answer: UpstreamAnswer, call: UpstreamCall, readError: unknown): UpstreamAnswer;
  /** What the call fails with when it got no usable answer (`error`: the network's, a bound's, a budget's). */
  failed(error: unknown, call: UpstreamCall): unknown;
}

/** Depth 4: the attempts of a call, under one budget. */
export interface AttemptPolicy {
  /** The budget of one call, started as the call goes out (`singleAttempt`: no retry). */
  start(call: UpstreamCall, singleAttempt: boolean): CallBudget;
}

/** One call's budget: the signal every attempt and the body's reading go under, and the retry rules. */
export interface CallBudget {
  /** The signal each attempt is sent with (the budget's, following the client's). */
  readonly signal: unknown;
  /** Before each attempt: throws when the budget is spent. */
  check(): void;
  /** An attempt failed with no answer: throws what the call fails with at once, or returns to let `again` decide. */
  failed(error: unknown): void;
  /** After attempt number `attempt` (0 first): the wait before another, or undefined when this outcome stands. */
  again(attempt: number, answer: UpstreamAnswer | undefined): number | undefined;
  /** The wait between attempts (fails when the engine's signal aborts). */
  wait(ms: number): Promise<void>;
  /** The call is over (its body read, or failed): the budget's timer and listeners go. */
  end(): void;
}

/** Depth 5: told how one attempt ended, at its answer's head. */
export interface AttemptWatch {
  answered(status: number): void;
  /** No answer: `signal` is the one the attempt went under (whether its budget ran out, or its engine ended). */
  failed(error: unknown, signal: unknown): void;
}

/**
 * One concern of upstream calls: given a service, its hooks for that service's calls, or undefined
 * when it has nothing to do for them (the problems cache for translation calls), which costs those
 * calls nothing. Asked once per service, when the list is composed.
 */
export interface ServiceStep {
  forService(service: ServiceName): CallHooks | undefined;
}

/** A step the same for every service: its hooks. */
export type UpstreamStepEntry = ServiceStep | CallHooks;

/** The hooks of `entry` for `service`. */
export function hooksOf(entry: UpstreamStepEntry, service: ServiceName): CallHooks | undefined {
  return 'forService' in entry && typeof entry.forService === 'function' ? entry.forService(service) : (entry as CallHooks);
}

/** The client request behind an upstream call (Mesh puts yoga's context on the call). */
export function clientRequestOf(call: Pick<UpstreamCall, 'context'>): RequestHead | undefined {
  return (call.context as { request?: RequestHead } | undefined)?.request;
}
