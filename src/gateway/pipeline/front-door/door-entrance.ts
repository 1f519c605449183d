import { memoized } from '../../../shared/memoized.ts';
import { UNEXPECTED_ERROR, UNEXPECTED_RESULT, type EarlyAnswer } from '../../request/early-answer.ts';
import type { GatewayRequest } from '../../request/gateway-request.ts';
import type { GuardList, MaybePromise } from '../../request/guards.ts';
import { asksOperation, createGatewayRequest } from '../create-gateway-request.ts';
import { runHeadGuards } from '../guard-list.ts';
import type { DoorAnswers } from './door-answers.ts';
import type { DoorAnswer, DoorRequest } from './door-request.ts';

export interface DoorEntranceOptions {
  guards: Pick<GuardList, 'head'>;
  answers: DoorAnswers;
}

/**
 * The door's first step, before any body is read: the request object, then the head guards (route,
 * key, rate limit, declared length…), so that a refusal costs no reading or parsing. Apart from the
 * rest, so that node:http's `100 Continue` goes out only once they let the request through.
 */
export function doorEntrance({ guards, answers }: DoorEntranceOptions) {
  /** The request object and the head guards' answer; never rejects (a guard that throws is a 500). */
  function enter(request: DoorRequest): { gateway: GatewayRequest; refused: MaybePromise<DoorAnswer | undefined> } {
    const { url, mountPath } = request;
    const { pathname: fullPath, hasQueryParameter } = urlFacts(url);
    const gateway = createGatewayRequest({
      head: request,
      pathname: mountPath === undefined ? fullPath : fullPath.slice(mountPath.length) || '/',
      mountPath,
      hasQueryParameter,
      socketAddress: request.socketAddress,
    });
    try {
      const answered = runHeadGuards(guards.head, gateway);
      if (answered instanceof Promise) return { gateway, refused: answered.then((answer) => answer && earlyAnswer(gateway, answer), () => failed(gateway)) };
      return { gateway, refused: answered && earlyAnswer(gateway, answered) };
    } catch {
      // A guard (an app's own, say) that throws is the gateway's fault, never the end of the process.
      return { gateway, refused: failed(gateway) };
    }
  }

  /** An answer of the head guards (a refusal, or /healthcheck): its body may still be on its way. */
  function earlyAnswer(gateway: GatewayRequest, { status, headers, body }: EarlyAnswer): DoorAnswer {
    return { ...answers.answer(gateway, status, headers, body), early: true };
  }

  /** A failure of the door's own or of a guard that threw (never expected): a 500 that says nothing of the cause. */
  function failed(gateway: GatewayRequest): DoorAnswer {
    gateway.observed.result = UNEXPECTED_RESULT;
    return earlyAnswer(gateway, UNEXPECTED_ERROR);
  }

  return { enter, failed };
}

/**
 * A request URL's path (as WHATWG URL parsing normalizes it, as yoga sees it) and whether it asks
 * for an operation (asksOperation).
 */
const urlFacts = memoized((url): { pathname: string; hasQueryParameter: boolean } => {
  try {
    const parsed = new URL(url);
    return { pathname: parsed.pathname, hasQueryParameter: asksOperation(parsed.searchParams) };
  } catch {
    return { pathname: '', hasQueryParameter: false };
  }
});
