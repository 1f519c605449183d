import type { ServerResponse } from 'node:http';

/** An answer to send: status, JSON body, extra headers. */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export const fail = (status: number, error: string, headers?: Record<string, string>): Reply => ({ status, body: { error }, headers });
export const invalid = (message: string) => fail(400, `Invalid request: ${message}`);

/** Shows a caller-supplied value in an error message, quoted and cut short. */
export const shown = (value: unknown) => JSON.stringify(String(value).slice(0, 32));

export function send(res: ServerResponse, { status, body, headers = {} }: Reply): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}
