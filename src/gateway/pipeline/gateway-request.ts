/**
 * Where upstream/observation.ts still reads the request object from: the request object now lives in
 * request/gateway-request.ts, at the bottom of the layers. Remove once that file imports it from there
 * (the layout test names this import as the one arrow back up).
 */
export { gatewayRequestOf } from '../request/gateway-request.ts';
