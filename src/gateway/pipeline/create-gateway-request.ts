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
