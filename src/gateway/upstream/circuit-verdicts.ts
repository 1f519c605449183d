import { upstreamErrorIn, type ServiceName } from '../errors.ts';
import type { BreakerTicket } from './circuit-admission.ts';
import type { CircuitChanges } from './circuit-changes.ts';
import { countCall, othersAnswered, windowOf, type CallVerdict, type Circuit } from './circuit.ts';

export interface VerdictOptions {
  failures: number;
  failureRatio: number;
  windowMs: number;
  minimumCalls: number;
  probes: number;
  changes: CircuitChanges;
  now: () => number;
}

/** Records what a call's outcome says of its service: `error` is what it failed with, if it did. */
export type RecordVerdict = (service: ServiceName, circuit: Circuit, ticket: BreakerTicket, verdict: CallVerdict, error?: unknown) => void;

/**
 * What each outcome does to a circuit: a witness's decides an open circuit (answered: the failures
 * were one client's; failed: the service is failing for two); a probe's, a half-open one (one
 * failure opens it again, `probes` successes close it); an ordinary call's is counted, and opens
 * the circuit when it meets a rule (trip).
 */
export function recordVerdicts(options: VerdictOptions): RecordVerdict {
  const { probes, changes } = options;
  const countAndJudge = judgeCalls(options);
  return (service, circuit, ticket, verdict, error) => {
    // A call that started before the last change of state says nothing about this one.
    if (ticket.generation !== circuit.generation) return;
    if (ticket.role === 'witness') {
      circuit.witnessOut = false;
      if (verdict === 'failure') {
        circuit.soleClient = undefined;
        return changes.say(service, `another client's call failed too (${causeOf(error)}): the service is failing; the circuit stays open`, 'warn');
      }
      if (verdict !== 'success') return;
      const sole = circuit.soleClient!;
      const until = circuit.probeAt;
      changes.change(service, circuit, 'closed', "circuit closed: another client's call was answered, so the failures were one client's", 'info');
      circuit.clients.set(sole, until);
      return;
    }
    if (ticket.role === 'probe') {
      circuit.probesOut -= 1;
      if (verdict === 'failure') return changes.open(service, circuit, `a probe call failed: ${causeOf(error)}`, ticket.client);
      if (verdict === 'success') circuit.probesPassed += 1;
      if (circuit.probesPassed >= probes) changes.change(service, circuit, 'closed', `circuit closed: ${probes} probe calls succeeded (${circuit.refused} calls were failed at once while it was open)`, 'info');
      return;
    }
    if (verdict === 'neutral' || circuit.state !== 'closed') return;
    countAndJudge(service, circuit, ticket.client, verdict, error);
  };
}

/**
 * An ordinary call's outcome, counted; failures that meet a rule (`failures` in a row, or a
 * `failureRatio` of at least `minimumCalls` in the window) open the service's circuit when they are
 * two clients' or more. One client's alone open that client's own circuit while the service
 * answered another client within the window, else the service's, with a witness to come.
 */
function judgeCalls({ failures, failureRatio, windowMs, minimumCalls, changes, now }: VerdictOptions) {
  const trip = (service: ServiceName, circuit: Circuit, clients: string[], at: number, why: string) => {
    if (clients.length > 1) return changes.open(service, circuit, `${why} for several clients`, undefined);
    const [client] = clients;
    if (othersAnswered(circuit, client, at - windowMs)) return changes.openFor(service, circuit, client, why);
    changes.open(service, circuit, why, client);
  };
  return (service: ServiceName, circuit: Circuit, client: string, verdict: Exclude<CallVerdict, 'neutral'>, error: unknown) => {
    const at = now();
    countCall(circuit, verdict, client, at, windowMs);
    if (verdict === 'success') return;
    if (circuit.consecutive >= failures) return trip(service, circuit, circuit.runClients, at, `${circuit.consecutive} calls in a row failed, the last: ${causeOf(error)}`);
    if (failureRatio <= 0) return;
    const { calls, failed, clients } = windowOf(circuit, at, windowMs);
    if (calls >= minimumCalls && failed / calls >= failureRatio) trip(service, circuit, clients, at, `${failed} of its last ${calls} calls failed, the last: ${causeOf(error)}`);
  };
}

/** Why a call failed, for the log line: the gateway's code and the upstream's status, never its text. */
function causeOf(error: unknown): string {
  const upstream = upstreamErrorIn(error);
  if (!upstream) return 'an unexpected error';
  const { code, status } = upstream.extensions;
  return status === undefined ? code : `${code}, HTTP ${status}`;
}
