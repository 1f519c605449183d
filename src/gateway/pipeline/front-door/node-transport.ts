import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { GatewayRequest } from '../../request/gateway-request.ts';
import type { DoorAnswer, DoorOutcome, DoorRequest } from './door-request.ts';
import { createFrontDoor, type FrontDoor, type FrontDoorOptions } from './front-door.ts';
import { bodyUnread, lingeringCloser } from './lingering-close.ts';

/** yoga's node:http handler, given the request object the door made. */
export type NodeYogaHandler = (request: IncomingMessage, response: ServerResponse, context: { gateway: GatewayRequest }) => void;

/**
 * A request listener, and its `checkContinue` for the server's 'checkContinue' event
 * (`server.on('checkContinue', adapter.checkContinue)`). Given a request sent with
 * `Expect: 100-continue`, node:http answers `100 Continue` itself before emitting 'request', so a
 * client the head guards then refuse has already been told to upload its body; with a
 * 'checkContinue' listener it emits that instead of 'request' (never both) and sends nothing.
 * `checkContinue` runs the head guards first, once, as the listener does: refused, the refusal is
 * the answer and no body is asked for; let through, `100 Continue` goes out and the request is
 * served as by the listener.
 */
export interface NodeAdapter extends RequestListener {
  checkContinue: RequestListener;
}

export interface NodeAdapterOptions extends FrontDoorOptions {
  /** Serves what the door leaves to yoga, given the request object made here. */
  next: NodeYogaHandler;
}

/** A front door (front-door.ts) and its node:http transport, for a door of its own. */
export function createNodeAdapter({ next, ...options }: NodeAdapterOptions): NodeAdapter {
  return nodeTransport(createFrontDoor(options), next);
}

/**
 * The front door on node:http: turns node's request into the door's (the URL the client asked
 * for, the mount an app put it under, the body read once when the door asks) and writes the
 * door's answer with `writeHead`, without web Request or Response objects. It checks nothing:
 * what is node's own is here, namely `100 Continue` only once the head guards let a request
 * through, a refused request's body left unread and its connection closed after a linger, and a
 * body read here handed to yoga with the request (nothing is read twice).
 */
export function nodeTransport(door: FrontDoor, next: NodeYogaHandler): NodeAdapter {
  const closeUnread = lingeringCloser();
  return Object.assign((request: IncomingMessage, response: ServerResponse) => handle(request, response, false), {
    checkContinue: (request: IncomingMessage, response: ServerResponse) => handle(request, response, true),
  });

  /** `continueFirst`: node:http has not sent `100 Continue` (a 'checkContinue' request); sent here once the head guards let the request through. */
  function handle(request: IncomingMessage, response: ServerResponse, continueFirst: boolean): void {
    const doorRequest = new NodeDoorRequest(request);
    const { gateway, refused } = door.enter(doorRequest);
    if (refused instanceof Promise) void refused.then((answer) => afterHead(doorRequest, response, continueFirst, gateway, answer));
    else afterHead(doorRequest, response, continueFirst, gateway, refused);
  }

  function afterHead(doorRequest: NodeDoorRequest, response: ServerResponse, continueFirst: boolean, gateway: GatewayRequest, answer: DoorAnswer | undefined): void {
    const { request } = doorRequest;
    // Refused without `100 Continue`: a client that waits for it sends no body at all (write
    // still closes the connection, which node:http would not keep alive after such an answer).
    if (answer) return write(request, response, answer);
    if (continueFirst) response.writeContinue();
    let outcome: DoorOutcome | Promise<DoorOutcome>;
    try {
      outcome = door.serve(doorRequest, gateway);
    } catch {
      outcome = { kind: 'answer', gateway, answer: door.failed(gateway) };
    }
    if (outcome instanceof Promise) void outcome.then((settled) => finish(request, response, settled));
    else finish(request, response, outcome);
  }

  function finish(request: IncomingMessage, response: ServerResponse, outcome: DoorOutcome): void {
    if (outcome.kind === 'answer') return write(request, response, outcome.answer);
    if (outcome.kind === 'unread') {
      // The client went away mid-body: nobody is waiting for an answer.
      door.abandoned(outcome.gateway);
      response.destroy();
      return;
    }
    if (outcome.body) (request as { body?: unknown }).body = alreadyRead(outcome.body);
    next(request, response, { gateway: outcome.gateway });
  }

  /**
   * Writes an answer. One given before the body was read leaves a body still on its way unread
   * (what reading refused uploads costs, in reading and in garbage, is what a flood of them is made
   * of): it says `Connection: close` and the connection is closed after it (closeUnread).
   */
  function write(request: IncomingMessage, response: ServerResponse, { status, headers, body, early }: DoorAnswer): void {
    if (response.headersSent) {
      response.destroy();
      return;
    }
    if (early && bodyUnread(request)) {
      closeUnread(request, response);
      response.writeHead(status, { ...(headers as Record<string, string | number>), connection: 'close' });
    } else response.writeHead(status, headers);
    response.end(body ?? undefined);
  }
}

/**
 * node's request as the door reads it: one object per request whose methods are its class's, so
 * that making it costs no closure.
 */
class NodeDoorRequest implements DoorRequest {
  readonly method: string;
  readonly url: string;
  readonly mountPath: string | undefined;
  readonly headers: NodeHeaders;
  readonly socketAddress: string | undefined;
  readonly hasBody: boolean;
  readonly bodyTaken: boolean;
  readonly request: IncomingMessage;

  constructor(request: IncomingMessage) {
    this.request = request;
    // Express and Connect hand a mounted middleware the path below its mount (`url`) and keep the
    // one the client asked for (`originalUrl`): routes are matched below the mount.
    const original = (request as { originalUrl?: string }).originalUrl;
    const target = original || request.url || '/';
    const base = `${(request.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'}://${request.headers.host ?? 'localhost'}`;
    this.method = request.method ?? 'GET';
    this.url = base + target;
    this.mountPath = (original !== undefined && request.url !== undefined && request.url !== original && mountPathOf(pathOf(this.url), pathOf(base + request.url))) || undefined;
    this.headers = new NodeHeaders(request);
    this.socketAddress = request.socket.remoteAddress;
    const length = request.headers['content-length'];
    // A body of undeclared length (chunked) is yoga's, which reads it bounded.
    this.hasBody = length !== undefined && Number(length) > 0;
    this.bodyTaken = (request as { body?: unknown }).body !== undefined;
  }

  readBody(): Promise<Buffer | undefined> {
    return readBody(this.request);
  }
}

const UPPER_CASE = /[A-Z]/;

/** node's headers as the door reads them (`get`, as a web `Headers` has it). */
class NodeHeaders {
  readonly #request: IncomingMessage;

  constructor(request: IncomingMessage) {
    this.#request = request;
  }

  get(name: string): string | null {
    // node:http keeps names in lower case, as the door asks for them: lowered only when they are not.
    const value = this.#request.headers[UPPER_CASE.test(name) ? name.toLowerCase() : name];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

/**
 * Where a middleware is mounted, from the path the client asked for and the path below the mount
 * (`/api/graphql` and `/` → `/api/graphql`; `/api/readiness` and `/readiness` → `/api`); undefined
 * when the two do not fit together.
 */
function mountPathOf(fullPath: string, below: string): string | undefined {
  if (below === '/' || below === '') return fullPath.replace(/\/$/, '');
  return fullPath.endsWith(below) ? fullPath.slice(0, fullPath.length - below.length) : undefined;
}

/**
 * A body read here, as yoga's node adapter takes one from `request.body` (as behind body-parsing
 * middleware). Not the Buffer itself: the adapter first lists the value's own keys, which for a
 * Buffer is one string per byte (123 ms for 1 MiB); this object has one key and yields the bytes.
 */
function alreadyRead(body: Buffer): { byteLength: number; [Symbol.asyncIterator](): AsyncGenerator<Buffer> } {
  return {
    byteLength: body.byteLength,
    async *[Symbol.asyncIterator]() {
      yield body;
    },
  };
}

/**
 * The request's body, or undefined when the client went away before sending all of it. By its
 * events, with as few listeners as it needs: an `IncomingMessage` that is destroyed emits 'close'
 * (its 'error' only to those listening for one), and a body in one chunk, as a short one comes,
 * is that chunk, not a copy. Plain listeners, not `once` (a wrapper per listener per request):
 * 'end' and 'close' each come once, and whichever comes first removes the others.
 */
function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    if (request.readableEnded) return resolve(Buffer.alloc(0));
    if (request.destroyed) return resolve(undefined);
    let first: Buffer | undefined;
    let more: Buffer[] | undefined;
    const onData = (chunk: Buffer) => {
      if (first === undefined) first = chunk;
      else (more ??= [first]).push(chunk);
    };
    const onEnd = () => {
      request.off('data', onData);
      request.off('close', onClose);
      resolve(more ? Buffer.concat(more) : (first ?? Buffer.alloc(0)));
    };
    const onClose = () => {
      request.off('data', onData);
      request.off('end', onEnd);
      resolve(undefined);
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('close', onClose);
  });
}
