import type { ServiceName } from '../errors.ts';
import type { CircuitChanges } from './circuit-changes.ts';
import type { Circuit } from './circuit.ts';

/** What a call goes out as: an ordinary call, a probe of a half-open circuit, or another client's witness of an open one. */
export type CallRole = 'call' | 'probe' | 'witness';

/** What the breaker notes of a call it lets out, to judge its outcome by (circuit-verdicts.ts). */
export interface BreakerTicket {
  role: CallRole;
  /** The circuit's generation when the call went out: an outcome of an earlier state says nothing. */
  generation: number;
  client: string;
  /** Probes and witnesses are tried once: a retried probe would triple what a struggling service gets. */
  singleAttempt: boolean;
}

export interface AdmissionOptions {
  probes: number;
  changes: CircuitChanges;
  now: () => number;
}

/**
 * Who goes out: a call of a client whose own circuit is open fails at once; while the service's
 * circuit is open, calls fail at once until its cool-down ends, except another client's first
 * call when the failures were one client's (a witness); then the circuit is half-open, and up to
 * `probes` calls go out while the others wait for their verdict, failing at once. Throws the
 * refusal (CircuitChanges.refuse); otherwise what the call goes out as.
 */
export function admitCalls({ probes, changes, now }: AdmissionOptions): (service: ServiceName, circuit: Circuit, client: string) => BreakerTicket {
  return (service, circuit, client) => {
    const own = circuit.clients.get(client);
    if (own !== undefined) {
      const wait = own - now();
      if (wait > 0) changes.refuse(service, circuit, Math.ceil(wait / 1000), true);
      circuit.clients.delete(client);
    }
    let role: CallRole = 'call';
    if (circuit.state === 'open') {
      const wait = circuit.probeAt - now();
      if (wait > 0) {
        if (circuit.soleClient === undefined || circuit.soleClient === client || circuit.witnessOut) changes.refuse(service, circuit, Math.ceil(wait / 1000));
        role = 'witness';
        circuit.witnessOut = true;
      } else changes.change(service, circuit, 'half-open', `circuit half-open: up to ${probes} probe calls go out`, 'info');
    }
    if (circuit.state === 'half-open') {
      // The probes still out decide; calls meanwhile wait for their verdict, as while open.
      if (circuit.probesOut + circuit.probesPassed >= probes) changes.refuse(service, circuit, 1);
      circuit.probesOut += 1;
      role = 'probe';
    }
    return { role, generation: circuit.generation, client, singleAttempt: role !== 'call' };
  };
}
