/**
 * The graphql-yoga server underneath, as an app reaches it: its fetch handler, with a server context
 * of the caller's. A file of its own, importing nothing: the package's declarations reach it from
 * `createGateway`'s, and must never reach yoga's own typings (or the front door's), which do not
 * check without `skipLibCheck`.
 */
export interface GatewayYoga {
  fetch(request: Request, ...serverContext: object[]): Promise<Response> | Response;
}
