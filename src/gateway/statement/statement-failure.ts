import { createGraphQLError } from 'graphql-yoga';
import { ErrorCode } from '../errors.ts';

/** Why the gateway gives no translation of a statement. Plain data: it crosses the worker's port and is memoized. */
export interface StatementFailure {
  message: string;
  /** The limit the statement is over, when a limit is the reason. */
  limit?: number;
  actual?: number;
  /** Not the statement's fault (the worker could not start, the gateway is closing): not memoized. */
  transient?: boolean;
}

const FAILURE = Symbol('statementFailure');

/** An error carrying a failure, thrown by the Markdown code and read back with `failureOf`. */
export function statementFailure(failure: StatementFailure): Error {
  return Object.assign(new Error(failure.message), { [FAILURE]: failure });
}

/** The failure an error stands for; anything unexpected (a stack overflow in the parser…) in general words. */
export function failureOf(error: unknown): StatementFailure {
  const known = (error as { [FAILURE]?: StatementFailure } | undefined)?.[FAILURE];
  if (known) return known;
  const reason = error instanceof RangeError ? ' (too deeply nested)' : '';
  return { message: `The gateway could not process this statement's Markdown${reason}, so it cannot translate it.` };
}

/** The field's error. A new one each time: graphql-js places it at the field that throws it. */
export function statementError({ message, limit, actual }: StatementFailure) {
  return createGraphQLError(message, { extensions: { code: ErrorCode.StatementNotTranslatable, limit, actual } });
}
