import { ErrorCode, UpstreamError, upstreamErrorIn, type ServiceName } from '../errors.ts';
import type { GatewayLog } from '../gateway-log.ts';
import { defaultOf } from '../settings.ts';
import { gatewayRequestOf } from '../request/gateway-request.ts';
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

/** Most clients whose own calls are refused at once, per service; past it the oldest is let go. */
const MAX_CLIENTS_REFUSED = 1000;

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
  /**
   * While open on one client's failures alone: that client. Another client's call then goes out at
   * once, as a witness: answered, the failures were that client's (its circuit opens instead);
   * failed too, the service is failing for two clients, and it stays open.
   */
  soleClient?: string;
  witnessOut: boolean;
  probeAt: number;
  probesOut: number;
  probesPassed: number;
  refused: number;
  /** Clients whose own calls fail at once, unsent, until when (ms): their failures were theirs alone. */
  clients: Map<string, number>;
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
  const say = (service: ServiceName, line: string, level: 'info' | 'warn') => {
    try {
      log(`upstream ${service}: ${line}`, level);
    } catch {
      // Logging must never break the call.
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
    circuit.soleClient = undefined;
    circuit.witnessOut = false;
    if (state === 'open') circuit.probeAt = now() + cooldownMs;
    if (state === 'closed') circuit.refused = 0;
    say(service, line, level);
    const told: BreakerChange = { service, state, previous, ...(state === 'open' ? { probeAt: circuit.probeAt } : {}) };
    tell((observer) => observer.breakerChanged?.(told));
  };
  const open = (service: ServiceName, circuit: Circuit, why: string, soleClient: string | undefined) => {
    change(service, circuit, 'open', `circuit open (${why}); its calls fail at once for ${seconds(cooldownMs)} s, then up to ${probes} probe calls decide`, 'warn');
    circuit.soleClient = soleClient;
  };
  /** Refuses `client`'s own calls for a cool-down; the service's count starts again without its failures. */
  const openFor = (service: ServiceName, circuit: Circuit, client: string, why: string) => {
    circuit.clients.delete(client);
    circuit.clients.set(client, now() + cooldownMs);
    if (circuit.clients.size > MAX_CLIENTS_REFUSED) circuit.clients.delete(circuit.clients.keys().next().value!);
    circuit.consecutive = 0;
    circuit.runClients = [];
    circuit.buckets = [];
    say(service, `one client's calls fail (${why}) while the service answers other clients: that client's calls fail at once for ${seconds(cooldownMs)} s; others' go on`, 'info');
  };

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

  /** Opens on failures of `clients` that met a rule: the service's circuit, or one client's own (see above). */
  const trip = (service: ServiceName, circuit: Circuit, clients: string[], at: number, why: string) => {
    if (clients.length > 1) return open(service, circuit, `${why} for several clients`, undefined);
    const [client] = clients;
    const othersAnswered = circuit.answered.some((entry) => entry.client !== client && entry.at > at - windowMs);
    if (othersAnswered) return openFor(service, circuit, client, why);
    open(service, circuit, why, client);
  };

  const record = (service: ServiceName, circuit: Circuit, generation: number, role: 'call' | 'probe' | 'witness', verdict: CallVerdict, client: string, error?: unknown) => {
    // A call that started before the last change of state says nothing about this one.
    if (generation !== circuit.generation) return;
    if (role === 'witness') {
      circuit.witnessOut = false;
      if (verdict === 'failure') {
        circuit.soleClient = undefined;
        return say(service, `another client's call failed too (${causeOf(error)}): the service is failing; the circuit stays open`, 'warn');
      }
      if (verdict !== 'success') return;
      const sole = circuit.soleClient!;
      const until = circuit.probeAt;
      change(service, circuit, 'closed', "circuit closed: another client's call was answered, so the failures were one client's", 'info');
      circuit.clients.set(sole, until);
      return;
    }
    if (role === 'probe') {
      circuit.probesOut -= 1;
      if (verdict === 'failure') return open(service, circuit, `a probe call failed: ${causeOf(error)}`, client);
      if (verdict === 'success') circuit.probesPassed += 1;
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
      circuit.answered = [{ client, at }, ...circuit.answered.filter((entry) => entry.client !== client)].slice(0, CLIENTS_KEPT);
      return;
    }
    bucket.failed += 1;
    noteClient(bucket.clients, client);
    circuit.consecutive += 1;
    noteClient(circuit.runClients, client);
    if (circuit.consecutive >= failures) return trip(service, circuit, circuit.runClients, at, `${circuit.consecutive} calls in a row failed, the last: ${causeOf(error)}`);
    if (failureRatio <= 0) return;
    const { calls, failed, clients } = windowOf(circuit, at);
    if (calls >= minimumCalls && failed / calls >= failureRatio) trip(service, circuit, clients, at, `${failed} of its last ${calls} calls failed, the last: ${causeOf(error)}`);
  };

  const refuse = (service: ServiceName, circuit: Circuit, retryAfter: number, yours = false): never => {
    circuit.refused += 1;
    tell((observer) => observer.breakerRefused?.(service));
    throw new UpstreamError(
      yours
        ? `The ${service} service failed this client's recent calls while it answers other clients; the gateway is not sending this client's calls for now (retry in ${retryAfter} s).`
        : `The ${service} service is failing; the gateway is not calling it for now (retry in ${retryAfter} s).`,
      { code: ErrorCode.UpstreamUnavailable, service, retryAfter },
    );
  };

  return async (call, next) => {
    const { service } = call;
    const circuit = circuits[service];
    const client = clientOfCall(call);
    const own = circuit.clients.get(client);
    if (own !== undefined) {
      const wait = own - now();
      if (wait > 0) refuse(service, circuit, Math.ceil(wait / 1000), true);
      circuit.clients.delete(client);
    }
    let role: 'call' | 'probe' | 'witness' = 'call';
    if (circuit.state === 'open') {
      const wait = circuit.probeAt - now();
      if (wait > 0) {
        if (circuit.soleClient === undefined || circuit.soleClient === client || circuit.witnessOut) refuse(service, circuit, Math.ceil(wait / 1000));
        role = 'witness';
        circuit.witnessOut = true;
      } else change(service, circuit, 'half-open', `circuit half-open: up to ${probes} probe calls go out`, 'info');
    }
    if (circuit.state === 'half-open') {
      // The probes still out decide; calls meanwhile wait for their verdict, as while open.
      if (circuit.probesOut + circuit.probesPassed >= probes) refuse(service, circuit, 1);
      circuit.probesOut += 1;
      role = 'probe';
    }
    const { generation } = circuit;
    const clientSignal = call.init.signal as { aborted?: boolean } | null | undefined;
    try {
      const answer = await next(role === 'call' ? call : { ...call, singleAttempt: true });
      record(service, circuit, generation, role, 'success', client);
      return answer;
    } catch (error) {
      // A client that went away ended the call: nothing learnt of the service.
      record(service, circuit, generation, role, clientSignal?.aborted ? 'neutral' : verdictOf(error), client, error);
      throw error;
    }
  };
}

function newCircuit(): Circuit {
  return {
    state: 'closed',
    generation: 0,
    consecutive: 0,
    runClients: [],
    buckets: [],
    answered: [],
    witnessOut: false,
    probeAt: 0,
    probesOut: 0,
    probesPassed: 0,
    refused: 0,
    clients: new Map(),
  };
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
