import type { GraphQLError } from 'graphql';
import type { OperationEstimate } from '../execution/shape/operation-cost.ts';
import type { GatewayRequest } from './gateway-request.ts';

/**
 * An answer given before any GraphQL processing: a refusal (401, 403, 404, 413, 429…) or a route's
 * own answer (/healthcheck). Plain data, so each adapter writes it its own way (node:http directly,
 * yoga as a web Response).
 */
export interface EarlyAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body; null for none (HEAD, 405). */
  body: string | null;
}

type MaybePromise<T> = T | Promise<T>;

/**
 * The guards of one phase, each a plain function over the request object. A guard answers (or
 * refuses) by returning something; returning nothing lets the request go on.
 */
export interface HeadGuard {
  name: string;
  /** Reads only the request's head (method, path, headers, peer): runs before any body is read. */
  check(request: GatewayRequest): MaybePromise<EarlyAnswer | undefined | void>;
}

export interface ParamsGuard {
  name: string;
  /** Reads the request's GraphQL parameters, before the document is parsed. */
  check(request: GatewayRequest, params: { variables?: unknown }): GraphQLError | undefined;
}

export interface BatchGuard {
  name: string;
  /** Reads how many operations a batched request carries (a batch is one request, many operations). */
  check(request: GatewayRequest, operations: number): Promise<GraphQLError | undefined>;
}

export interface OperationGuard {
  name: string;
  /** Reads the parsed, validated operation with its variables (the estimate of what it will cost). */
  check(request: GatewayRequest, estimate: OperationEstimate): MaybePromise<GraphQLError | undefined>;
}

/**
 * Every check a client request goes through, by phase, in order. Both adapters (node-adapter.ts in
 * front of yoga, yoga-adapter.ts inside it) run these lists and nothing else: a guard added here
 * applies to every way a request can be answered.
 */
export interface GuardList {
  head: HeadGuard[];
  params: ParamsGuard[];
  batch: BatchGuard[];
  operation: OperationGuard[];
}

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
