import { listen, type RunningServer } from '../../src/shared/listen.ts';

/** 200 kB, so a reply cut short would show. */
export const STATEMENT = 'Print the answer. '.repeat(11_000);
export const QUERY = /* GraphQL */ `{ problem(id: "p1") { id title statement } }`;

/**
 * A problems service that holds every request until the test lets it go (`release()`): a request stays
 * in flight exactly as long as a test needs, however slow the machine, with no timer to outwait.
 */
export async function startHeldProblems() {
  const waiting: (() => void)[] = [];
  const watchers = new Set<() => void>();
  const held = {
    arrived: 0,
    answered: 0,
    server: undefined as unknown as RunningServer,
    /** Answers every request held so far. */
    release: () => {
      for (const answer of waiting.splice(0)) answer();
    },
    /** Resolves once `count` requests have arrived in all (counted from the service's start): no polling. */
    arrivals: (count: number) =>
      new Promise<void>((resolve) => {
        const watcher = () => {
          if (held.arrived < count) return;
          watchers.delete(watcher);
          resolve();
        };
        watchers.add(watcher);
        watcher();
      }),
  };
  held.server = await listen((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.once('end', () => {
      const answer = () => {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ data: { problem: { __typename: 'Problem', id: 'p1', title: 'A slow problem', statement: STATEMENT } } }));
      };
      // The gateway's introspection at start (answered with nothing it can use: it keeps its snapshot) is not a request in flight.
      if (body.includes('__schema')) return answer();
      held.arrived += 1;
      for (const watcher of [...watchers]) watcher();
      waiting.push(() => {
        held.answered += 1;
        answer();
      });
    });
  });
  return held;
}

export type HeldProblems = Awaited<ReturnType<typeof startHeldProblems>>;

/** The query to the held service, sent to the gateway on `port`: its status and body once answered. */
export const sendSlowQuery = (port: number, requestId?: string, query = QUERY) =>
  fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(requestId ? { 'x-request-id': requestId } : {}) },
    body: JSON.stringify({ query }),
  }).then(async (response) => ({ status: response.status, body: await response.json() }));

/** Whether a process of that id is still there (a zombie not yet reaped counts). */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The gateway's JSON log lines about one request, from everything it printed. */
export const logLinesOf = (output: string, requestId: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes(`"requestId":"${requestId}"`))
    .map((line) => JSON.parse(line));
