import type { GraphQLError } from 'graphql';
import type { EarlyAnswer } from './early-answer.ts';
import type { GatewayRequest } from './gateway-request.ts';
import type { OperationEstimate } from './operation-estimate.ts';

export type MaybePromise<T> = T | Promise<T>;

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
 * Every check a client request goes through, by phase, in order. The front door (pipeline/front-door/)
 * and yoga-adapter.ts (for what yoga serves behind it) run these lists and nothing else: a guard added here
 * applies to every way a request can be answered.
 */
export interface GuardList {
  head: HeadGuard[];
  params: ParamsGuard[];
  batch: BatchGuard[];
  operation: OperationGuard[];
}
