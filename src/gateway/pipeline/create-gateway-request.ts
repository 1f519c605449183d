import { newObservedRequest, REQUEST_ID_HEADER } from '../request/observed-request.ts';
import type { GatewayRequest, RequestArrival } from '../request/gateway-request.ts';
import { readAcceptLanguage } from '../translation/accept-language.ts';

/** The request object, made once when a request arrives, by whichever adapter it arrives through. */
export function createGatewayRequest({ head, pathname, mountPath, hasQueryParameter, socketAddress }: RequestArrival): GatewayRequest {
  return {
    head,
    pathname,
    mountPath,
    hasQueryParameter,
    socketAddress,
    graphql: false,
    identity: 'anonymous',
    keyAccepted: false,
    observed: newObservedRequest(head.headers.get(REQUEST_ID_HEADER), false, performance.now()),
    headChecked: false,
    readerLanguages: readAcceptLanguage(head.headers.get('accept-language')),
  };
}

/**
 * Whether a URL's parameters ask for an operation: its text (`query`), or a persisted document's
 * hash (`extensions`) or id (`documentId`), which yoga's GET parser serves as well. A GET without
 * one is the GraphiQL page.
 */
export function asksOperation(search: URLSearchParams): boolean {
  return search.has('query') || search.has('extensions') || search.has('documentId');
}
