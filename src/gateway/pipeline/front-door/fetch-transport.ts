import type { DoorAnswer, DoorOutcome, DoorRequest } from './door-request.ts';
import type { FrontDoor } from './front-door.ts';

/** yoga's fetch handler, given a server context holding the request object the door made. */
export type FetchYogaHandler = (request: Request, ...serverContext: object[]) => Promise<Response> | Response;

export interface FetchTransportOptions {
  /** The largest body read (MAX_BODY_BYTES): a larger one goes to yoga, which refuses it with 413. */
  maxBodyBytes: number;
}

/**
 * The front door as a fetch handler (`Request` → `Response`): what `gateway.fetch` and
 * `gateway.yoga.fetch` are, so that an app embedding the gateway, a worker or a test takes the
 * same path as a request on the node:http listener, with the same guards, cache read and answers.
 * It checks nothing: it turns a `Request` into the door's request (the body read once, bounded,
 * when the door asks for it), the door's answer into a `Response`, and hands yoga what the door
 * leaves to it, with the body already read and the caller's server context.
 */
export function fetchTransport(door: FrontDoor, next: FetchYogaHandler, { maxBodyBytes }: FetchTransportOptions) {
  return async (request: Request, ...serverContext: object[]): Promise<Response> => {
    const socket = (serverContext[0] as { req?: { socket?: { remoteAddress?: string } } } | undefined)?.req?.socket;
    // What was read of a body over the bound, for yoga to refuse in its own words.
    let overBound: Uint8Array | undefined;
    const doorRequest: DoorRequest = {
      method: request.method,
      url: request.url,
      headers: request.headers,
      socketAddress: socket?.remoteAddress,
      hasBody: request.body !== null,
      bodyTaken: false,
      readBody: async () => {
        const read = await readBounded(request.body!, maxBodyBytes);
        if (read.over) overBound = read.bytes;
        return read.over ? undefined : Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength);
      },
    };
    const { gateway, refused } = door.enter(doorRequest);
    const answer = await refused;
    if (answer) return responseOf(answer);
    let outcome: DoorOutcome;
    try {
      outcome = await door.serve(doorRequest, gateway);
    } catch {
      outcome = { kind: 'answer', gateway, answer: door.failed(gateway) };
    }
    if (outcome.kind === 'answer') return responseOf(outcome.answer);
    const body = outcome.kind === 'yoga' ? outcome.body : overBound;
    // The body was read here: yoga reads it again from a request made of the same bytes.
    const handedOn = body ? new Request(request.url, { method: request.method, headers: request.headers, body: body as Uint8Array<ArrayBuffer>, signal: request.signal }) : request;
    return next(handedOn, { gateway }, ...serverContext);
  };
}

function responseOf({ status, headers, body }: DoorAnswer): Response {
  const init = new Headers();
  if (Array.isArray(headers)) {
    for (let index = 0; index < headers.length; index += 2) init.append(headers[index], headers[index + 1]);
  } else {
    for (const name in headers) init.set(name, String(headers[name]));
  }
  return new Response(body as string | Uint8Array<ArrayBuffer> | null, { status, headers: init });
}

/** A web stream's bytes, up to one past `maxBytes` (then `over`, the transfer cancelled). */
async function readBounded(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<{ bytes: Uint8Array; over: boolean }> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  let over = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.byteLength;
    if (length > maxBytes) {
      over = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  return { bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), over };
}
