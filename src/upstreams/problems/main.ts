/**
 * Runs the problems stand-in: `tsx src/upstreams/problems/main.ts` (or `npm run upstream:problems`).
 *
 * Environment:
 * - `PORT`: port to listen on, 0 picks a free one (default 4001).
 * - `HOST`: interface to bind (default 127.0.0.1; use 0.0.0.0 inside a container).
 * - `PROBLEMS_API_KEY`: when set, clients must send `Authorization: Bearer <key>` (default: open).
 */
import { listen } from '../../shared/listen.ts';
import { createProblemsService } from './service.ts';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const portText = process.env.PORT?.trim() || '4001';
if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) fail(`PORT must be an integer from 0 to 65535, got "${portText}".`);
const host = process.env.HOST?.trim() || '127.0.0.1';
const apiKey = process.env.PROBLEMS_API_KEY || undefined;

const { listener } = createProblemsService({ apiKey });
const server = await listen(listener, { port: Number(portText), host }).catch((error: NodeJS.ErrnoException) =>
  fail(`Cannot listen on ${host}:${portText}: ${error.code ?? error.message}`),
);
console.log(`Problems service at ${server.url}/graphql${apiKey ? ' (Bearer key required)' : ' (open, no API key)'}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
