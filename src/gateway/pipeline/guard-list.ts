import type { GraphQLError } from 'graphql';
import type { EarlyAnswer } from '../request/early-answer.ts';
import type { GatewayRequest } from '../request/gateway-request.ts';
import type { BatchGuard, HeadGuard, MaybePromise, OperationGuard, ParamsGuard } from '../request/guards.ts';
import type { OperationEstimate } from '../request/operation-estimate.ts';

/**
 * Runs the head guards in order; the first answer ends the request. Synchronous guards are not
 * awaited (most are), so a request no guard stops costs no promise per guard.
 */
export function runHeadGuards(guards: HeadGuard[], request: GatewayRequest, from = 0): MaybePromise<EarlyAnswer | undefined> {
  for (let index = from; index < guards.length; index += 1) {
    const outcome = guards[index].check(request);
    if (outcome instanceof Promise) return outcome.then((answer) => answer ?? runHeadGuards(guards, request, index + 1));
    if (outcome) return outcome;
  }
  request.headChecked = true;
  return undefined;
}

/** The first refusal of the params guards, or undefined. */
export function runParamsGuards(guards: ParamsGuard[], request: GatewayRequest, params: { variables?: unknown }): GraphQLError | undefined {
  for (const guard of guards) {
    const refusal = guard.check(request, params);
    if (refusal) return refusal;
  }
  return undefined;
}

/** The first refusal of the batch guards, or undefined. */
export async function runBatchGuards(guards: BatchGuard[], request: GatewayRequest, operations: number): Promise<GraphQLError | undefined> {
  for (const guard of guards) {
    const refusal = await guard.check(request, operations);
    if (refusal) return refusal;
  }
  return undefined;
}

/** The first refusal of the operation guards, in order (the costly ones, such as spending a budget, last). */
export function runOperationGuards(guards: OperationGuard[], request: GatewayRequest, estimate: OperationEstimate, from = 0): MaybePromise<GraphQLError | undefined> {
  for (let index = from; index < guards.length; index += 1) {
    const outcome = guards[index].check(request, estimate);
    if (outcome instanceof Promise) return outcome.then((refusal) => refusal ?? runOperationGuards(guards, request, estimate, index + 1));
    if (outcome) return outcome;
  }
  return undefined;
}
