import type { IncomingHttpHeaders } from 'node:http';
import type { Stack } from './start-stack.ts';

/** The path and headers of every request a stand-in upstream receives, by service. */
export type UpstreamRequests = Record<'problems' | 'translation', { path: string; headers: IncomingHttpHeaders }[]>;

/**
 * Listens alongside the stand-ins' own handlers (a second 'request' listener only watches), so a
 * test can see the headers the gateway sent upstream. Returns the record and a function to stop.
 */
export function recordUpstreamRequests(stack: Pick<Stack, 'upstreamServers'>): { seen: UpstreamRequests; stop(): void } {
  const seen: UpstreamRequests = { problems: [], translation: [] };
  const stops = (['problems', 'translation'] as const).map((service) => {
    const server = stack.upstreamServers[service].server;
    const listener = (request: { url?: string; headers: IncomingHttpHeaders }) => seen[service].push({ path: request.url ?? '', headers: request.headers });
    server.on('request', listener);
    return () => server.off('request', listener);
  });
  return { seen, stop: () => stops.forEach((stop) => stop()) };
}
