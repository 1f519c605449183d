import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { ErrorCode } from '../errors.ts';
import { gatewayError } from '../request/early-answer.ts';
import type { HeadGuard } from '../request/guards.ts';
import { readBoundedBytes } from '../../shared/read-bounded.ts';

export interface RequestBodyOptions {
  /** Largest body accepted (MAX_BODY_BYTES); a larger one gets 413. */
  maxBytes: number;
}

/** Only a single non-negative integer is a Content-Length (anything else may be request smuggling). */
const CONTENT_LENGTH = /^\d+$/;

/**
 * A body's declared size, checked on the head before anything is read: a `Content-Length` over
 * `maxBytes` is 413 `REQUEST_ENTITY_TOO_LARGE`, a malformed one 400.
 */
export function declaredLengthGuard({ maxBytes }: RequestBodyOptions): HeadGuard {
  const invalid = gatewayError(400, 'Content-Length header is invalid.', 'BAD_REQUEST');
  const tooLargeAnswer = gatewayError(413, TOO_LARGE, 'REQUEST_ENTITY_TOO_LARGE');
  return {
    name: 'declared length',
    check({ route, head }) {
      const declared = head.headers.get('content-length');
      if (route !== 'graphql' || declared === null) return undefined;
      if (!CONTENT_LENGTH.test(declared)) return invalid;
      return Number(declared) > maxBytes ? tooLargeAnswer : undefined;
    },
  };
}

/**
 * Reads a POST body once, bounded and checked, for whichever parser yoga chose (its declared
 * length was checked on the head, by declaredLengthGuard):
 * - over `maxBytes` is 413 `REQUEST_ENTITY_TOO_LARGE`, counted while reading a body without a
 *   declared length (chunked);
 * - a body that is not valid UTF-8 is 400, instead of invalid bytes decoding to U+FFFD and reaching an
 *   upstream as a different string than the client sent.
 * This replaces yoga's own size limit (`maxRequestBodySize: false` in create-gateway.ts), which wraps
 * every body in a new web Request and a TransformStream: with this one a body is read once, without
 * streams when its length is declared (Node's HTTP parser never reads past a Content-Length).
 */
export function useRequestBody({ maxBytes }: RequestBodyOptions): Plugin {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return {
    onRequestParse({ request, requestParser, setRequestParser }) {
      const declared = request.headers.get('content-length');
      if (!requestParser || request.method !== 'POST' || !request.body) return;
      const parse = requestParser;
      setRequestParser(async (incoming) => {
        const bytes = declared !== null ? new Uint8Array(await incoming.arrayBuffer()) : await readBoundedBytes(incoming.body!, maxBytes, tooLarge);
        // A declared length bounds what node:http reads; a Request built in-process may declare anything.
        if (bytes.byteLength > maxBytes) throw tooLarge();
        try {
          decoder.decode(bytes);
        } catch {
          throw bodyError('The request body is not valid UTF-8.', ErrorCode.RequestNotUtf8, 400);
        }
        return parse(replayed(incoming, bytes, decoder));
      });
    },
  };
}

const TOO_LARGE = 'Request body too large';

function tooLarge() {
  return bodyError(TOO_LARGE, 'REQUEST_ENTITY_TOO_LARGE', 413);
}

function bodyError(message: string, code: string, status: number) {
  return createGraphQLError(message, { extensions: { code, http: { status } } });
}

/**
 * The request again, its body the bytes already read. Parsers of text bodies (JSON, GraphQL
 * strings, forms) read it through `text()`/`json()`/`arrayBuffer()`, answered from the bytes: a new
 * web Request per request (an AbortSignal and a stream each) was a tenth of a pass-through's CPU.
 * A multipart body is parsed by `formData()`, which needs a real Request.
 */
function replayed(incoming: Request, bytes: Uint8Array<ArrayBuffer>, decoder: TextDecoder): Request {
  if (/^multipart\//i.test(incoming.headers.get('content-type') ?? '')) {
    return new Request(incoming.url, { method: incoming.method, headers: incoming.headers, body: bytes });
  }
  const text = () => decoder.decode(bytes);
  const answers: Record<PropertyKey, unknown> = {
    text: async () => text(),
    json: async () => JSON.parse(text()) as unknown,
    arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    bodyUsed: false,
  };
  return new Proxy(incoming, {
    get(target, property) {
      if (property in answers) return answers[property];
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
