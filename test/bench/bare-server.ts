/**
 * The machine's ceiling: node:http answering every request with the same bytes, read from BODY.
 *
 *   BODY='{"data":…}' node test/bench/bare-server.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const body = Buffer.from(process.env.BODY ?? '{}');
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.byteLength });
    response.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`bare server at http://127.0.0.1:${(server.address() as AddressInfo).port}`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));
