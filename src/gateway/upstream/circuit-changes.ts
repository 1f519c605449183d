import { ErrorCode, UpstreamError, type ServiceName } from '../errors.ts';
import type { GatewayLog } from '../gateway-log.ts';
import { resetCounts, type BreakerChange, type BreakerObserver, type BreakerState, type Circuit } from './circuit.ts';

/** Most clients whose own calls are refused at once, per service; past it the oldest is let go. */
const MAX_CLIENTS_REFUSED = 1000;

export interface CircuitChangesOptions {
  cooldownMs: number;
  probes: number;
  observers: readonly BreakerObserver[];
  log: GatewayLog;
  now: () => number;
}

/** What a circuit's state can be changed by, each change logged in one line and told to the observers. */
export interface CircuitChanges {
  /** `circuit` goes to `state`, its counts and probes started again; `line` says why. */
  change(service: ServiceName, circuit: Circuit, state: BreakerState, line: string, level: 'info' | 'warn'): void;
  /** The service's circuit opens for a cool-down (on `soleClient`'s failures alone, when so). */
  open(service: ServiceName, circuit: Circuit, why: string, soleClient: string | undefined): void;
  /** `client`'s own calls fail at once for a cool-down; the service's count starts again without its failures. */
  openFor(service: ServiceName, circuit: Circuit, client: string, why: string): void;
  /** Fails a call at once, unsent, with UPSTREAM_UNAVAILABLE and when to retry (`yours`: the client's own circuit). */
  refuse(service: ServiceName, circuit: Circuit, retryAfter: number, yours?: boolean): never;
  /** One line of the breaker's, never failing the call. */
  say(service: ServiceName, line: string, level: 'info' | 'warn'): void;
}

/** The changes of state of the breaker's circuits, with their log lines and observers. */
export function circuitChanges({ cooldownMs, probes, observers, log, now }: CircuitChangesOptions): CircuitChanges {
  const tell = (each: (observer: BreakerObserver) => void) => {
    for (const observer of observers) {
      try {
        each(observer);
      } catch {
        // Observing must never break the call.
      }
    }
  };
  const say: CircuitChanges['say'] = (service, line, level) => {
    try {
      log(`upstream ${service}: ${line}`, level);
    } catch {
      // Logging must never break the call.
    }
  };
  const change: CircuitChanges['change'] = (service, circuit, state, line, level) => {
    const previous = circuit.state;
    circuit.state = state;
    circuit.generation += 1;
    resetCounts(circuit);
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
  return {
    change,
    say,
    open(service, circuit, why, soleClient) {
      change(service, circuit, 'open', `circuit open (${why}); its calls fail at once for ${seconds(cooldownMs)} s, then up to ${probes} probe calls decide`, 'warn');
      circuit.soleClient = soleClient;
    },
    openFor(service, circuit, client, why) {
      circuit.clients.delete(client);
      circuit.clients.set(client, now() + cooldownMs);
      if (circuit.clients.size > MAX_CLIENTS_REFUSED) circuit.clients.delete(circuit.clients.keys().next().value!);
      resetCounts(circuit);
      say(service, `one client's calls fail (${why}) while the service answers other clients: that client's calls fail at once for ${seconds(cooldownMs)} s; others' go on`, 'info');
    },
    refuse(service, circuit, retryAfter, yours = false) {
      circuit.refused += 1;
      tell((observer) => observer.breakerRefused?.(service));
      throw new UpstreamError(
        yours
          ? `The ${service} service failed this client's recent calls while it answers other clients; the gateway is not sending this client's calls for now (retry in ${retryAfter} s).`
          : `The ${service} service is failing; the gateway is not calling it for now (retry in ${retryAfter} s).`,
        { code: ErrorCode.UpstreamUnavailable, service, retryAfter },
      );
    },
  };
}

function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}
