import { gatewayRequestOf } from '../request/gateway-request.ts';
import type { IncomingMessage } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import type { ServiceName } from '../errors.ts';
import type { ProblemsSchemaStatus } from '../schema/live-problems-schema.ts';
import type { BreakerObserver } from '../upstream/circuit-breaker.ts';
import { parsedUrl } from '../upstream/parsed-url.ts';
import type { RequestObserver, UpstreamCallEnd } from '../request/observed-request.ts';
import { refuseUnlessRead } from './read-only-endpoint.ts';

/** Where each upstream is and the key the gateway sends it, as the mesh was built with. */
export type UpstreamTargets = Record<ServiceName, { url?: string; apiKey?: string; keyInBody?: boolean }>;

export interface ReadinessOptions {
  upstreams: UpstreamTargets;
  /** Local stand-ins (fake data) answer for some upstreams: said in every answer. @default false */
  standIns?: boolean;
  /**
   * Other things the gateway relies on (a shared store, say), checked with the upstreams and reported
   * beside them: each resolves `ok` or, in a few words, what is wrong. Like an upstream, one that
   * fails makes the gateway `degraded`, never not ready. @default {}
   */
  dependencies?: Record<string, () => Promise<string>>;
  /**
   * What the gateway's real calls last saw of each service's key (watchKeyRefusals): a refusal is
   * reported over a check that passed, since a check may need no key (a LibreTranslate-compatible
   * service answers GET /languages to anyone).
   */
  keyRefusals?: KeyRefusals;
  /**
   * Each service's circuit breaker as the gateway's calls left it (watchBreakers): an open or
   * half-open circuit is reported over whatever the check found, since it is what the service's
   * fields get now.
   */
  breakers?: BreakerStates;
  /**
   * The problems schema served (its source, hash and last check), reported as `schema` in every
   * answer. It never changes the status: a failed check leaves the last good schema serving.
   */
  problemsSchema?: () => ProblemsSchemaStatus;
  /** Told each upstream's (and dependency's) state after every check (for a metric). */
  onChecked?: (services: Record<string, string>) => void;
  /** @default '/readiness' */
  endpoint?: string;
  /** Longest wait for each upstream's answer. @default 2000 */
  timeoutMs?: number;
  /** How long a result is reused, so a storm of probes does not become a storm of upstream calls. @default 2000 */
  cacheMs?: number;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
}

export interface UpstreamReport {
  /** `ready`: every upstream answers; `degraded`: one or more does not, and the fields it serves answer with errors. */
  status: 'ready' | 'degraded';
  /** `ok`, or in a few words what is wrong: never a URL, a key or an upstream's own text. */
  services: Record<ServiceName, string> & Record<string, string>;
}

export type ReadinessReport =
  | (UpstreamReport & { standIns: boolean; schema?: ProblemsSchemaStatus })
  /** The server has stopped accepting connections and is finishing the requests in flight. */
  | { status: 'shutting down'; standIns: boolean };

interface UpstreamCheck {
  /** The variable to name when the URL is missing. */
  urlVariable: string;
  /** Calls the service with its key; resolves with `ok` or what is wrong. */
  probe(base: string, headers: Record<string, string>, signal: AbortSignal, fetchFn: typeof fetch, bodyKey: Record<string, string>): Promise<string>;
}

/**
 * What "answering with its key" means for each service: the cheapest request that needs the key
 * and proves the service works.
 */
const CHECKS: Record<ServiceName, UpstreamCheck> = {
  problems: {
    urlVariable: 'PROBLEMS_URL',
    async probe(base, headers, signal, fetchFn) {
      const response = await fetchFn(`${base}/graphql`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
        signal,
      });
      const problem = statusProblem(response);
      if (problem) return problem;
      const body = (await readJson(response)) as { data?: unknown } | undefined;
      return body?.data && typeof body.data === 'object' ? 'ok' : 'answered without GraphQL data';
    },
  },
  translation: {
    urlVariable: 'TRANSLATION_URL',
    async probe(base, headers, signal, fetchFn, bodyKey) {
      const response = await fetchFn(`${base}/languages`, { headers: { ...headers, accept: 'application/json' }, signal });
      const problem = statusProblem(response);
      if (problem) return problem;
      const body = await readJson(response);
      if (!Array.isArray(body)) return 'answered without a language list';
      return (await keyRefusal(base, headers, signal, fetchFn, bodyKey)) ?? 'ok';
    },
  },
};

/**
 * Whether the translation service refuses the key. LibreTranslate checks no key on /languages, only
 * where it works (/translate, /detect), and checks it first there: a detection of no text is refused
 * for the key (403) or, the key accepted, for the missing text (400), before any work and costing
 * no reader anything. Undefined when the key was not refused (or the service did not say).
 */
async function keyRefusal(base: string, headers: Record<string, string>, signal: AbortSignal, fetchFn: typeof fetch, bodyKey: Record<string, string>): Promise<string | undefined> {
  const response = await fetchFn(`${base}/detect`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ q: '', ...bodyKey }),
    signal,
  });
  void response.body?.cancel().catch(() => undefined);
  return response.status === 401 || response.status === 403 ? `refused the key (HTTP ${response.status})` : undefined;
}

/** The translation key checked alone (keyRefusal), as at start: undefined when it was not refused or the service could not be asked. */
export async function translationKeyRefusal(target: UpstreamTargets['translation'], timeoutMs: number, fetchFn: typeof fetch = globalThis.fetch): Promise<string | undefined> {
  if (!target.url) return undefined;
  const signal = AbortSignal.timeout(timeoutMs);
  return keyRefusal(asCalled(target.url), headersOf(target.apiKey), signal, fetchFn, bodyKeyOf(target)).catch(() => undefined);
}

const headersOf = (key: string | undefined): Record<string, string> => (key ? { authorization: `Bearer ${key}` } : {});
const bodyKeyOf = ({ apiKey, keyInBody = false }: UpstreamTargets[ServiceName]): Record<string, string> => (apiKey && keyInBody ? { api_key: apiKey } : {});

/**
 * GET `endpoint`: whether a load balancer should send this gateway requests. 200 while it serves:
 * `ready`, or `degraded` when an upstream fails its check, since the other upstream's fields still
 * answer and taking every replica out of rotation for one upstream would fail those too. 503 only
 * once its HTTP server has stopped accepting connections (shutdown). The body names each upstream's
 * state and whether stand-ins serve it. Open, like /healthcheck (liveness): balancers carry no key.
 */
export function useReadiness({
  upstreams,
  standIns = false,
  dependencies = {},
  keyRefusals,
  breakers,
  problemsSchema,
  onChecked,
  endpoint = '/readiness',
  timeoutMs = 2000,
  cacheMs = 2000,
  fetch: fetchFn = globalThis.fetch,
}: ReadinessOptions): Plugin {
  let last: { at: number; report: Promise<UpstreamReport> } | undefined;
  const check = (): Promise<UpstreamReport> => {
    const now = performance.now();
    if (last && now - last.at < cacheMs) return last.report;
    const report = checkUpstreams(upstreams, timeoutMs, fetchFn, dependencies);
    last = { at: now, report };
    // Probes arriving while a check runs share it; the result is kept `cacheMs` from when it is known.
    void report.then((checked) => {
      if (last?.report === report) last.at = performance.now();
      onChecked?.(withCallStates(checked, keyRefusals, breakers).services);
    });
    return report;
  };
  return {
    async onRequest({ request, url, endResponse, serverContext }) {
      // The path as routed (below the mount, when an app mounted the gateway).
      if ((gatewayRequestOf(serverContext)?.pathname ?? url.pathname) !== endpoint) return;
      if (refuseUnlessRead(request, endResponse)) return;
      // Refusals are applied to each answer, not kept with the check: one clears with the call that succeeds.
      const report: ReadinessReport = stoppedAccepting(serverContext)
        ? { status: 'shutting down', standIns }
        : { ...withCallStates(await check(), keyRefusals, breakers), standIns, ...(problemsSchema ? { schema: problemsSchema() } : {}) };
      endResponse(
        new Response(request.method === 'HEAD' ? null : JSON.stringify(report), {
          status: report.status === 'shutting down' ? 503 : 200,
          headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
        }),
      );
    },
  };
}

/** What real calls see of each service's key, for readiness. */
export interface KeyRefusals {
  /** Told about every upstream call: put it among the gateway's observers. */
  observer: RequestObserver;
  /** `refused the key (HTTP 403)` while the service's last answer to a call was 401 or 403. */
  stateOf(service: ServiceName): string | undefined;
}

/**
 * Follows the answers the gateway's own upstream calls get: a 401 or 403 marks the service as
 * refusing the key until a later call gets a 2xx. Other failures (5xx, 429, timeouts) say nothing
 * about the key and change nothing: the readiness check reports those.
 */
export function watchKeyRefusals(): KeyRefusals {
  const refused: Partial<Record<ServiceName, string>> = {};
  // One function per service, made once: no closure per call.
  const endOf = (service: ServiceName) => ({ status }: UpstreamCallEnd) => {
    if (status === '401' || status === '403') refused[service] = `refused the key (HTTP ${status})`;
    else if (status.length === 3 && status.startsWith('2')) delete refused[service];
  };
  const ends: Record<ServiceName, (end: UpstreamCallEnd) => void> = { problems: endOf('problems'), translation: endOf('translation') };
  return {
    observer: { upstreamCall: ({ service }) => ends[service] },
    stateOf: (service) => refused[service],
  };
}

/** What the circuit breakers tell of each service, for readiness. */
export interface BreakerStates {
  /** Told of each change of state: put it among the gateway's observers. */
  observer: BreakerObserver;
  /** `circuit open (retry in 7 s)` or `circuit half-open (probing)`; undefined while closed. */
  stateOf(service: ServiceName): string | undefined;
}

/** Follows each service's circuit breaker (upstream/circuit-breaker.ts) through its observer hook. */
export function watchBreakers(now: () => number = Date.now): BreakerStates {
  const states: Partial<Record<ServiceName, { state: 'open' | 'half-open'; probeAt?: number }>> = {};
  return {
    observer: {
      breakerChanged({ service, state, probeAt }) {
        if (state === 'closed') delete states[service];
        else states[service] = { state, probeAt };
      },
    },
    stateOf(service) {
      const circuit = states[service];
      if (!circuit) return undefined;
      if (circuit.state === 'half-open') return 'circuit half-open (probing)';
      const wait = Math.ceil(((circuit.probeAt ?? 0) - now()) / 1000);
      // Past its cool-down the circuit stays open until a call comes to probe it.
      return wait > 0 ? `circuit open (retry in ${wait} s)` : 'circuit open (the next call probes)';
    },
  };
}

/**
 * The report with what the gateway's own calls see: each refused key over a check that passed (a
 * failing check says more: it is kept), then each circuit that is not closed over either (it is
 * what the service's fields get now, whatever the check found).
 */
function withCallStates(report: UpstreamReport, keyRefusals: KeyRefusals | undefined, breakers: BreakerStates | undefined): UpstreamReport {
  if (!keyRefusals && !breakers) return report;
  let services: UpstreamReport['services'] | undefined;
  for (const service of Object.keys(CHECKS) as ServiceName[]) {
    const refusal = report.services[service] === 'ok' ? keyRefusals?.stateOf(service) : undefined;
    const state = breakers?.stateOf(service) ?? refusal;
    if (state === undefined) continue;
    services ??= { ...report.services };
    services[service] = state;
  }
  return services ? { status: 'degraded', services } : report;
}

/**
 * Whether the Node HTTP server this request came through was closed (`server.close()`, as a graceful
 * shutdown does first): the request arrived on a kept-alive connection, most likely the balancer's
 * own, which is exactly the one to tell. Asking the server keeps it true for any app that serves the
 * gateway, with no shutdown flag to pass around; outside Node's HTTP server it is never true.
 */
function stoppedAccepting(serverContext: unknown): boolean {
  const socket = (serverContext as { req?: IncomingMessage } | undefined)?.req?.socket as { server?: { listening?: boolean } } | undefined;
  return socket?.server?.listening === false;
}

export async function checkUpstreams(
  upstreams: UpstreamTargets,
  timeoutMs: number,
  fetchFn: typeof fetch = globalThis.fetch,
  dependencies: Record<string, () => Promise<string>> = {},
): Promise<UpstreamReport> {
  const entries = await Promise.all([
    ...(Object.entries(CHECKS) as [ServiceName, UpstreamCheck][]).map(
      async ([service, check]) => [service, await checkOne(check, upstreams[service], timeoutMs, fetchFn)] as const,
    ),
    ...Object.entries(dependencies).map(async ([name, check]) => [name, await checkDependency(check, timeoutMs)] as const),
  ]);
  const services = Object.fromEntries(entries) as UpstreamReport['services'];
  return { status: entries.every(([, state]) => state === 'ok') ? 'ready' : 'degraded', services };
}

async function checkOne(
  { urlVariable, probe }: UpstreamCheck,
  target: UpstreamTargets[ServiceName],
  timeoutMs: number,
  fetchFn: typeof fetch,
): Promise<string> {
  // The same base and key the mesh was built with, so readiness probes what the gateway really calls.
  if (!target.url) return `not configured (${urlVariable} is not set)`;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    return await probe(asCalled(target.url), headersOf(target.apiKey), signal, fetchFn, bodyKeyOf(target));
  } catch {
    return signal.aborted ? `did not answer within ${timeoutMs} ms` : 'unreachable';
  }
}

/**
 * `url` as upstream calls reach it: by origin and path (upstream-fetch.ts), so a `user:pass@` in it
 * is not sent, where fetch would refuse the URL outright and the service would read as unreachable.
 */
function asCalled(url: string): string {
  const parsed = parsedUrl(url);
  return parsed ? `${parsed.origin}${parsed.url.pathname.replace(/\/+$/, '')}` : url;
}

/** A dependency's own check, held to the same time limit as the upstreams'. */
async function checkDependency(check: () => Promise<string>, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`did not answer within ${timeoutMs} ms`), timeoutMs)));
  try {
    return await Promise.race([check().catch(() => 'unreachable'), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The body as JSON, or undefined when it is not JSON; a body that stalls past the timeout still throws. */
async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch (error) {
    if ((error as Error)?.name === 'TimeoutError' || (error as Error)?.name === 'AbortError') throw error;
    return undefined;
  }
}

function statusProblem(response: Response): string | undefined {
  if (response.ok) return undefined;
  void response.body?.cancel().catch(() => undefined);
  if (response.status === 401 || response.status === 403) return `refused the key (HTTP ${response.status})`;
  return `answered HTTP ${response.status}`;
}
