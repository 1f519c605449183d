import { ErrorCode, upstreamErrorIn, type ServiceName } from '../errors.ts';
import type { GatewayLog } from '../gateway-log.ts';
import { defaultOf } from '../settings.ts';
import { gatewayRequestOf } from '../request/gateway-request.ts';
import { admitCalls, type BreakerTicket } from './circuit-admission.ts';
import { circuitChanges } from './circuit-changes.ts';
import { recordVerdicts } from './circuit-verdicts.ts';
import { newCircuit, type BreakerObserver, type CallVerdict, type Circuit } from './circuit.ts';
import type { CallHooks, UpstreamCall } from './upstream-call.ts';

export type { BreakerChange, BreakerObserver, BreakerState, CallVerdict } from './circuit.ts';

export interface CircuitBreakerOptions {
  /** Consecutive failed calls that open a service's circuit; 0 turns the breaker off. @default as UPSTREAM_BREAKER_FAILURES */
  failures?: number;
  /** How long an open circuit fails calls at once before it lets probes through. @default as UPSTREAM_BREAKER_COOLDOWN_MS */
  cooldownMs?: number;
  /** Share of failed calls within `windowMs` that opens the circuit too (0 to 1); 0 turns this rule off. @default as UPSTREAM_BREAKER_FAILURE_PERCENT */
  failureRatio?: number;
  /** The window the ratio is taken over. @default as UPSTREAM_BREAKER_WINDOW_MS */
  windowMs?: number;
  /** Fewest calls in the window before the ratio counts, so a quiet service is not judged on two calls. @default 10 */
  minimumCalls?: number;
  /** Probe calls that must succeed to close the circuit again; one failure opens it for another cool-down. @default 3 */
  probes?: number;
  /** Told of every change of state and every call refused. @default none */
  observers?: readonly BreakerObserver[];
  /** Where the one line of each change of state goes. @default console.warn */
  log?: GatewayLog;
  /** @default Date.now */
  now?: () => number;
}

/**
 * What a failed call says about its service. Failures: no answer in time, no connection (refused,
 * reset, DNS), a 5xx, or a body that cannot be used, since a rest may help a service in that
 * state. An answer that blames the request (a 4xx, a refused key) shows the service is up: opening
 * would fail good requests and fix nothing (a refused key is reported by /readiness instead). A 429
 * is neither: the retries already wait as the service asks, and it is no sign of the service being
 * down. Nor is an answer over the gateway's size bound, which is the request's and the bound's doing.
 */
export function verdictOf(error: unknown): CallVerdict {
  const upstream = upstreamErrorIn(error);
  if (!upstream) return 'failure';
  switch (upstream.code) {
    case ErrorCode.UpstreamTimeout:
    case ErrorCode.UpstreamUnavailable:
    case ErrorCode.UpstreamError:
      return 'failure';
    case ErrorCode.UpstreamRateLimited:
    case ErrorCode.UpstreamResponseTooLarge:
      return 'neutral';
    default:
      return 'success';
  }
}

/**
 * Who a call is made for: the client's identity (its key's hash, or its address: client-identity.ts),
 * or the gateway itself for calls of no client request (prewarming, start-up, readiness).
 */
export function clientOfCall(call: Pick<UpstreamCall, 'context'>): string {
  return gatewayRequestOf(call.context)?.identity ?? 'gateway';
}

/**
 * A circuit breaker per service, around a whole call: outside the retries, so a call and all its
 * attempts count once, and a call refused while open spends no attempt. After `failures`
 * consecutive failed calls, or a `failureRatio` of the calls in the last `windowMs`, the service's
 * circuit opens: its calls fail at once with UPSTREAM_UNAVAILABLE and `retryAfter` (seconds until
 * the next probe) for `cooldownMs`. Then up to `probes` calls go out, each tried once (a retried
 * probe would triple what a struggling service gets); all succeeding closes the circuit, one
 * failing opens it for another cool-down. Each service has its own circuit, and answers cached before
 * this step (the problems cache, the translation cache) are served whatever its state.
 *
 * Failures are counted by the client they were made for (clientOfCall), so that one client cannot
 * open the circuit for everyone: a service may fail a call for its input (LibreTranslate answers 500
 * when its model raises on a text). Failures that meet the rules above open the service's circuit
 * when they are two clients' or more. One client's alone, while the service answered another client
 * in the last `windowMs`, open that client's own circuit: its calls fail at once for `cooldownMs`,
 * others' go out. One client's alone with no other client answered lately (one client calling, or a
 * service down for all) open the service's circuit, but the first call of another client goes out
 * at once as a witness: answered, the circuit closes and the failing client's own opens instead;
 * failed, the service is failing for two clients and stays open. A failed probe reopens it the same
 * way, as one client's failure.
 *
 * Per gateway, so per replica: each replica judges the service from its own calls and probes on its
 * own (see README "Deploying and replicas").
 */
export function breakUpstreamCircuits({
  failures = defaultOf('upstreamBreakerFailures'),
  cooldownMs = defaultOf('upstreamBreakerCooldownMs'),
  failureRatio = defaultOf('upstreamBreakerFailurePercent') / 100,
  windowMs = defaultOf('upstreamBreakerWindowMs'),
  minimumCalls = 10,
  probes = 3,
  observers = [],
  log = console.warn,
  now = Date.now,
}: CircuitBreakerOptions = {}): CallHooks {
  if (failures <= 0) return {};
  const circuits: Record<ServiceName, Circuit> = { problems: newCircuit(), translation: newCircuit() };
  const changes = circuitChanges({ cooldownMs, probes, observers, log, now });
  const admit = admitCalls({ probes, changes, now });
  const record = recordVerdicts({ failures, failureRatio, windowMs, minimumCalls, probes, changes, now });
  return {
    enter: (call) => admit(call.service, circuits[call.service], clientOfCall(call)),
    settled(call, ticket, _answer, error) {
      const circuit = circuits[call.service];
      if (error === undefined) return record(call.service, circuit, ticket as BreakerTicket, 'success');
      // Cut short from outside (its engine disposed, the gateway closing): nothing learnt of the service.
      const cutShort = (call.init.signal as { aborted?: boolean } | null | undefined)?.aborted;
      record(call.service, circuit, ticket as BreakerTicket, cutShort ? 'neutral' : verdictOf(error), error);
    },
  };
}
