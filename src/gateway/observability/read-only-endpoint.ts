/**
 * The operational endpoints (/metrics, /readiness) only read: anything but GET or HEAD gets 405.
 * Returns true when the request was answered here.
 */
export function refuseUnlessRead(request: Request, endResponse: (response: Response) => void): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return false;
  endResponse(new Response(null, { status: 405, headers: { allow: 'GET, HEAD' } }));
  return true;
}
