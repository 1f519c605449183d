import type { Plugin } from 'graphql-yoga';
import type { ServiceName } from '../errors.ts';
import { refuseUnlessRead } from './read-only-endpoint.ts';

/** Where each upstream is and the key the gateway sends it, as the mesh was built with. */
export type UpstreamTargets = Record<ServiceName, { url?: string; apiKey?: string }>;

export interface ReadinessOptions {
  upstreams: UpstreamTargets;
  /** @default '/readiness' */
  endpoint?: string;
  /** Longest wait for each upstream's answer. @default 2000 */
  timeoutMs?: number;
  /** How long a result is reused, so a storm of probes does not become a storm of upstream calls. @default 2000 */
  cacheMs?: number;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
}

export interface ReadinessReport {
  status: 'ready' | 'not ready';
  /** `ok`, or in a few words what is wrong: never a URL, a key or an upstream's own text. */
  services: Record<ServiceName, string>;
}

interface UpstreamCheck {
  /** The variable to name when the URL is missing. */
  urlVariable: string;
  /** Calls the service with its key; resolves with `ok` or what is wrong. */
  probe(base: string, headers: Record<string, string>, signal: AbortSignal, fetchFn: typeof fetch): Promise<string>;
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
    async probe(base, headers, signal, fetchFn) {
      const response = await fetchFn(`${base}/languages`, { headers: { ...headers, accept: 'application/json' }, signal });
      const problem = statusProblem(response);
      if (problem) return problem;
      const body = await readJson(response);
      return Array.isArray(body) ? 'ok' : 'answered without a language list';
    },
  },
};

/**
 * GET `endpoint`: 200 `{"status":"ready","services":{…:"ok"}}` when both upstreams answer with the
 * gateway's keys, else 503 with what is wrong with each. /healthcheck (yoga's) only says the process
 * is alive; this says it can serve. Open, like /healthcheck: load balancers carry no gateway key.
 */
export function useReadiness({ upstreams, endpoint = '/readiness', timeoutMs = 2000, cacheMs = 2000, fetch: fetchFn = globalThis.fetch }: ReadinessOptions): Plugin {
  let last: { at: number; report: Promise<ReadinessReport> } | undefined;
  const check = (): Promise<ReadinessReport> => {
    const now = performance.now();
    if (last && now - last.at < cacheMs) return last.report;
    const report = checkUpstreams(upstreams, timeoutMs, fetchFn);
    last = { at: now, report };
    // Probes arriving while a check runs share it; the result is kept `cacheMs` from when it is known.
    void report.then(() => {
      if (last?.report === report) last.at = performance.now();
    });
    return report;
  };
  return {
    async onRequest({ request, url, endResponse }) {
      if (url.pathname !== endpoint) return;
      if (refuseUnlessRead(request, endResponse)) return;
      const report = await check();
      endResponse(
        new Response(request.method === 'HEAD' ? null : JSON.stringify(report), {
          status: report.status === 'ready' ? 200 : 503,
          headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
        }),
      );
    },
  };
}

export async function checkUpstreams(upstreams: UpstreamTargets, timeoutMs: number, fetchFn: typeof fetch = globalThis.fetch): Promise<ReadinessReport> {
  const entries = await Promise.all(
    (Object.entries(CHECKS) as [ServiceName, UpstreamCheck][]).map(
      async ([service, check]) => [service, await checkOne(check, upstreams[service], timeoutMs, fetchFn)] as const,
    ),
  );
  const services = Object.fromEntries(entries) as Record<ServiceName, string>;
  return { status: entries.every(([, state]) => state === 'ok') ? 'ready' : 'not ready', services };
}

async function checkOne(
  { urlVariable, probe }: UpstreamCheck,
  { url: base, apiKey: key }: UpstreamTargets[ServiceName],
  timeoutMs: number,
  fetchFn: typeof fetch,
): Promise<string> {
  // The same base and key the mesh was built with, so readiness probes what the gateway really calls.
  if (!base) return `not configured (${urlVariable} is not set)`;
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    return await probe(base, headers, signal, fetchFn);
  } catch {
    return signal.aborted ? `did not answer within ${timeoutMs} ms` : 'unreachable';
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
