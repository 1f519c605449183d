import type { GatewayRequest } from '../../request/gateway-request.ts';

/**
 * A request as the front door reads it, whatever it arrived through (node:http, a web `Request`):
 * the head, and the body as bytes read on demand. Each transport makes one (node-transport.ts,
 * fetch-transport.ts) and checks nothing itself.
 */
export interface DoorRequest {
  method: string;
  /** The absolute URL the client asked for (above any mount). */
  url: string;
  /** Where an app mounted the gateway (Express or Connect `originalUrl`), when it did. */
  mountPath?: string;
  headers: { get(name: string): string | null };
  /** The peer of the connection, when the transport knows it. */
  socketAddress: string | undefined;
  /** Whether there is a body the door may read whole (a declared length, or one the transport bounds itself). */
  hasBody: boolean;
  /** A body some middleware already took (Express body parsers): the door leaves the request to yoga. */
  bodyTaken: boolean;
  /** The whole body; undefined when it could not be read whole (the client went away, or it passed the transport's bound). */
  readBody(): Promise<Buffer | undefined>;
}

/** An answer as the door writes it; a transport turns it into its own kind (writeHead, a `Response`). */
export interface DoorAnswer {
  status: number;
  /** A record, or names and values in turn (as node:http's `writeHead` takes them). */
  headers: Record<string, string | number> | string[];
  /** The bytes to send; null for none (HEAD, 304, a refusal without one), whatever the headers declare. */
  body: string | Buffer | null;
  /** An answer given before the body was read (a head guard's, or the door's own failure): its body may still be on its way. */
  early?: boolean;
}

/**
 * What the door made of a request: its answer; or yoga's to serve (what the request is: GraphiQL,
 * another route, incremental delivery, a media type the door does not speak…), with the body when
 * the door read it; or nobody's, its body never read whole (`unread`).
 */
export type DoorOutcome =
  | { kind: 'answer'; gateway: GatewayRequest; answer: DoorAnswer }
  | { kind: 'yoga'; gateway: GatewayRequest; body?: Buffer }
  | { kind: 'unread'; gateway: GatewayRequest };
