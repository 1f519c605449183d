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
        return parse(new Request(incoming.url, { method: incoming.method, headers: incoming.headers, body: bytes }));
      });
    },
  };
}
