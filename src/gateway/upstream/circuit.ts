import type { ServiceName } from '../errors.ts';

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

/** How a whole call (all its attempts) bears on its service's health. */
export type CallVerdict = 'success' | 'failure' | 'neutral';

/** Time buckets of the ratio window: coarse enough to cost nothing per call, fine enough to slide. */
const BUCKETS = 10;

/**
 * Distinct clients kept per count: two tell "more than one client" apart from "one client", which is
 * all the opening rule asks, and bound what a flood of identities can make the breaker hold.
 */
const CLIENTS_KEPT = 2;

/** One service's circuit: its state and what its recent calls say. */
export interface Circuit {
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

export function newCircuit(): Circuit {
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

/** Forgets the circuit's counts: a new state, or one client's failures set apart, starts them again. */
export function resetCounts(circuit: Circuit): void {
  circuit.consecutive = 0;
  circuit.runClients = [];
  circuit.buckets = [];
}

/** Adds `client` to a short list of distinct clients, keeping it at most CLIENTS_KEPT long. */
export function noteClient(clients: string[], client: string): void {
  if (clients.length < CLIENTS_KEPT && !clients.includes(client)) clients.push(client);
}

/**
 * Counts a closed circuit's call that succeeded or failed at `at`: in the window's current bucket,
 * and in the run of consecutive failures (which a success ends, noting its client as answered).
 */
export function countCall(circuit: Circuit, verdict: Exclude<CallVerdict, 'neutral'>, client: string, at: number, windowMs: number): void {
  let bucket = circuit.buckets.at(-1);
  if (!bucket || bucket.start <= at - Math.max(1, windowMs / BUCKETS)) circuit.buckets.push((bucket = { start: at, calls: 0, failed: 0, clients: [] }));
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
}

/** The window's calls, failures and failing clients, dropping buckets that slid out of it. */
export function windowOf(circuit: Circuit, at: number, windowMs: number): { calls: number; failed: number; clients: string[] } {
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
}

/** Whether a client other than `client` was answered since `since`. */
export function othersAnswered(circuit: Circuit, client: string, since: number): boolean {
  return circuit.answered.some((entry) => entry.client !== client && entry.at > since);
}
