import type { EarlyAnswer } from '../request/early-answer.ts';

/** The operational endpoints (/healthcheck, /metrics, /readiness) only read: anything but GET or HEAD gets 405. */
export function readOnlyRefusal(method: string): EarlyAnswer | undefined {
  if (method === 'GET' || method === 'HEAD') return undefined;
  return { status: 405, headers: { allow: 'GET, HEAD' }, body: null };
}

/** readOnlyRefusal for a yoga plugin: answers 405 and returns true, or returns false. */
export function refuseUnlessRead(request: Request, endResponse: (response: Response) => void): boolean {
  const refusal = readOnlyRefusal(request.method);
  if (!refusal) return false;
  endResponse(new Response(refusal.body, { status: refusal.status, headers: refusal.headers }));
  return true;
}
