import { ErrorCode, UpstreamError, upstreamErrorIn, type ServiceName } from '../errors.ts';
import type { GatewayLog } from '../observability/gateway-log.ts';
import { gatewayRequestOf } from '../pipeline/gateway-request.ts';
import type { UpstreamCall, UpstreamStep } from './upstream-call.ts';

/** `closed`: calls go out; `open`: calls fail at once; `half-open`: a few probe calls decide. */
export type BreakerState = 'closed' | 'open' | 'half-open';

export interface BreakerChange {
  service: ServiceName;
  state: BreakerState;
  previous: BreakerState;
  /** While open: when (epoch ms) the next call will be let through as a probe. */
  probeAt?: number;
}

/**
 * What the breaker tells the gateway's observers (metrics, readiness), beside the hooks of
 * RequestObserver: an observer among them that has these hooks is told.
 */
export interface BreakerObserver {
  /** The circuit of a service changed state. */
  breakerChanged?(change: BreakerChange): void;
  /** A call was failed at once, unsent, because the service's circuit was open. */
  breakerRefused?(service: ServiceName): void;
}

export interface CircuitBreakerOptions {
  /** Consecutive failed calls that open a service's circuit; 0 turns the breaker off. @default 5 */
  failures?: number;
  /** How long an open circuit fails calls at once before it lets probes through. @default 10000 */
  cooldownMs?: number;
  /** Share of failed calls within `windowMs` that opens the circuit too (0 to 1); 0 turns this rule off. @default 0.5 */
  failureRatio?: number;
  /** The window the ratio is taken over. @default 10000 */
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

/** How a whole call (all its attempts) bears on its service's health. */
export type CallVerdict = 'success' | 'failure' | 'neutral';

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

/** Time buckets of the ratio window: coarse enough to cost nothing per call, fine enough to slide. */
const BUCKETS = 10;

/**
 * Distinct clients kept per count: two tell "more than one client" apart from "one client", which is
 * all the opening rule asks, and bound what a flood of identities can make the breaker hold.
 */
const CLIENTS_KEPT = 2;

interface Circuit {
  state: BreakerState;
  /** Bumped at every change of state: a call's outcome counts only in the state it started in. */
  generation: number;
  consecutive: number;
  /** The clients whose calls make up the current run of failures (at most CLIENTS_KEPT). */
  runClients: string[];
  buckets: { start: number; calls: number; failed: number; clients: string[] }[];
  /** The last clients (distinct, at most CLIENTS_KEPT) whose calls the service answered, and when. */
  answered: { client: string; at: number }[];
  probeAt: number;
  probesOut: number;
  probesPassed: number;
  /** The clients whose probes passed in this half-open spell (at most CLIENTS_KEPT). */
  probeClients: string[];
  refused: number;
}

/**
 * Who a call is made for: the client's identity (its key's hash, or its address: client-identity.ts),
 * or the gateway itself for calls of no client request (prewarming, start-up, readiness).
 */
export function clientOfCall(call: Pick<UpstreamCall, 'context'>): string {
  return gatewayRequestOf(call.context)?.identity ?? 'gateway';
}

/** Adds `client` to a short list of distinct clients, keeping it at most CLIENTS_KEPT long. */
function noteClient(clients: string[], client: string): void {
  if (clients.length < CLIENTS_KEPT && !clients.includes(client)) clients.push(client);
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
 * Failures are counted by the client they were made for, so one client cannot open the circuit for
 * everyone: a service that fails one client's calls while it answers another's (in the last
 * `windowMs`) is failing on that client's input (LibreTranslate answers 500 when its model raises on
 * a text), and the rules above open the circuit only when the failures they count come from two
 * clients or more, or when no other client's call was answered meanwhile (one client alone, or a
 * service down for all). Likewise a failed probe reopens it only if no other client's probe passed.
 *
 * Per gateway, so per replica: each replica judges the service from its own calls and probes on its
 * own (see README "Deploying and replicas").
 */
export function breakUpstreamCircuits({
  failures = 5,
  cooldownMs = 10_000,
  failureRatio = 0.5,
  windowMs = 10_000,
  minimumCalls = 10,
  probes = 3,
  observers = [],
  log = console.warn,
  now = Date.now,
}: CircuitBreakerOptions = {}): UpstreamStep {
  if (failures <= 0) return (call, next) => next(call);
  const circuits: Record<ServiceName, Circuit> = { problems: newCircuit(), translation: newCircuit() };
  const bucketMs = Math.max(1, windowMs / BUCKETS);

  const tell = (each: (observer: BreakerObserver) => void) => {
    for (const observer of observers) {
      try {
        each(observer);
      } catch {
        // Observing must never break the call.
      }
    }
  };
  const change = (service: ServiceName, circuit: Circuit, state: BreakerState, line: string, level: 'info' | 'warn') => {
    const previous = circuit.state;
    circuit.state = state;
    circuit.generation += 1;
    circuit.consecutive = 0;
    circuit.runClients = [];
    circuit.buckets = [];
    circuit.probesOut = 0;
    circuit.probesPassed = 0;
    circuit.probeClients = [];
    if (state === 'open') circuit.probeAt = now() + cooldownMs;
    if (state === 'closed') circuit.refused = 0;
    try {
      log(`upstream ${service}: ${line}`, level);
    } catch {
      // Logging must never break the call.
    }
    const told: BreakerChange = { service, state, previous, ...(state === 'open' ? { probeAt: circuit.probeAt } : {}) };
    tell((observer) => observer.breakerChanged?.(told));
  };
  const open = (service: ServiceName, circuit: Circuit, why: string) =>
    change(service, circuit, 'open', `circuit open (${why}); its calls fail at once for ${seconds(cooldownMs)} s, then up to ${probes} probe calls decide`, 'warn');

  /** The window's calls, failures and failing clients, dropping buckets that slid out of it. */
  const windowOf = (circuit: Circuit, at: number) => {
    circuit.buckets = circuit.buckets.filter((bucket) => bucket.start > at - windowMs);
    let calls = 0;
    let failed = 0;
    const clients: string[] = [];
    for (const bucket of circuit.buckets) {
      calls += bucket.calls;
      failed += bucket.failed;
      for (const client of bucket.clients) noteClient(clients, client);
    }
    return { calls, failed, clients };
  };

  /**
   * Whether failures of `clients` are the service's: more than one client met them, or the service
   * answered no other client in the window (so nothing shows it works for anyone).
   */
  const theService = (circuit: Circuit, clients: string[], at: number) =>
    clients.length > 1 || !circuit.answered.some(({ client, at: answeredAt }) => client !== clients[0] && answeredAt > at - windowMs);

  const answeredFor = (circuit: Circuit, client: string, at: number) => {
    circuit.answered = [{ client, at }, ...circuit.answered.filter((entry) => entry.client !== client)].slice(0, CLIENTS_KEPT);
  };

  const record = (service: ServiceName, circuit: Circuit, generation: number, probe: boolean, verdict: CallVerdict, client: string, error?: unknown) => {
    // A call that started before the last change of state says nothing about this one.
    if (generation !== circuit.generation) return;
    if (probe) {
      circuit.probesOut -= 1;
      if (verdict === 'failure') {
        // Another client's probe passed: this one failed on its own client's input.
        if (circuit.probeClients.some((passed) => passed !== client)) return;
        return open(service, circuit, `a probe call failed: ${causeOf(error)}`);
      }
      if (verdict === 'success') {
        circuit.probesPassed += 1;
        noteClient(circuit.probeClients, client);
      }
      if (circuit.probesPassed >= probes) change(service, circuit, 'closed', `circuit closed: ${probes} probe calls succeeded (${circuit.refused} calls were failed at once while it was open)`, 'info');
      return;
    }
    if (verdict === 'neutral' || circuit.state !== 'closed') return;
    const at = now();
    let bucket = circuit.buckets.at(-1);
    if (!bucket || bucket.start <= at - bucketMs) circuit.buckets.push((bucket = { start: at, calls: 0, failed: 0, clients: [] }));
    bucket.calls += 1;
    if (verdict === 'success') {
      circuit.consecutive = 0;
      circuit.runClients = [];
      answeredFor(circuit, client, at);
      return;
    }
    bucket.failed += 1;
    noteClient(bucket.clients, client);
    circuit.consecutive += 1;
    noteClient(circuit.runClients, client);
    if (circuit.consecutive >= failures && theService(circuit, circuit.runClients, at)) {
      return open(service, circuit, `${circuit.consecutive} calls in a row failed${clientsSaid(circuit.runClients)}, the last: ${causeOf(error)}`);
    }
    if (failureRatio <= 0) return;
    const { calls, failed, clients } = windowOf(circuit, at);
    if (calls >= minimumCalls && failed / calls >= failureRatio && theService(circuit, clients, at)) {
      open(service, circuit, `${failed} of its last ${calls} calls failed${clientsSaid(clients)}, the last: ${causeOf(error)}`);
    }
  };

  const refuse = (service: ServiceName, circuit: Circuit, retryAfter: number): never => {
    circuit.refused += 1;
    tell((observer) => observer.breakerRefused?.(service));
    throw new UpstreamError(`The ${service} service is failing; the gateway is not calling it for now (retry in ${retryAfter} s).`, {
      code: ErrorCode.UpstreamUnavailable,
      service,
      retryAfter,
    });
  };

  return async (call, next) => {
    const { service } = call;
    const circuit = circuits[service];
    if (circuit.state === 'open') {
      const wait = circuit.probeAt - now();
      if (wait > 0) refuse(service, circuit, Math.ceil(wait / 1000));
      change(service, circuit, 'half-open', `circuit half-open: up to ${probes} probe calls go out`, 'info');
    }
    const probe = circuit.state === 'half-open';
    if (probe) {
      // The probes still out decide; calls meanwhile wait for their verdict, as while open.
      if (circuit.probesOut + circuit.probesPassed >= probes) refuse(service, circuit, 1);
      circuit.probesOut += 1;
    }
    const { generation } = circuit;
    const client = clientOfCall(call);
    const clientSignal = call.init.signal as { aborted?: boolean } | null | undefined;
    try {
      const answer = await next(probe ? { ...call, singleAttempt: true } : call);
      record(service, circuit, generation, probe, 'success', client);
      return answer;
    } catch (error) {
      // A client that went away ended the call: nothing learnt of the service.
      record(service, circuit, generation, probe, clientSignal?.aborted ? 'neutral' : verdictOf(error), client, error);
      throw error;
    }
  };
}

function newCircuit(): Circuit {
  return { state: 'closed', generation: 0, consecutive: 0, runClients: [], buckets: [], answered: [], probeAt: 0, probesOut: 0, probesPassed: 0, probeClients: [], refused: 0 };
}

/** Whether the failures came from several clients, for the log line (never who: an identity may be an address). */
function clientsSaid(clients: string[]): string {
  return clients.length > 1 ? ' for several clients' : '';
}

/** Why a call failed, for the log line: the gateway's code and the upstream's status, never its text. */
function causeOf(error: unknown): string {
  const upstream = upstreamErrorIn(error);
  if (!upstream) return 'an unexpected error';
  const { code, status } = upstream.extensions;
  return status === undefined ? code : `${code}, HTTP ${status}`;
}

function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}
