import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { ErrorCode } from '../errors.ts';

/**
 * Refuses a request body that is not valid UTF-8 (400), instead of letting invalid bytes decode to
 * U+FFFD and reach an upstream as a different string than the client sent.
 */
export function useUtf8Body(): Plugin {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return {
    onRequestParse({ request, requestParser, setRequestParser }) {
      if (!requestParser || request.method !== 'POST' || !request.body) return;
      const parse = requestParser;
      setRequestParser(async (incoming) => {
        const bytes = new Uint8Array(await incoming.arrayBuffer());
        try {
          decoder.decode(bytes);
        } catch {
          throw createGraphQLError('The request body is not valid UTF-8.', {
            extensions: { code: ErrorCode.RequestNotUtf8, http: { status: 400 } },
          });
        }
        return parse(replayed(incoming, bytes, decoder));
      });
    },
  };
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
