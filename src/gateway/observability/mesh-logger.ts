import type { Logger } from '@graphql-mesh/types';
import { GraphQLError } from 'graphql';
import { inspect } from 'node:util';

import type { GatewayLog } from '../gateway-log.ts';


/** Mesh prints ANSI colours around its messages; a log line carries none. */
const ANSI = /\u001b\[[0-9;]*m/g;

function lineOf(name: string, args: unknown[]): string {
  const text = args
    .map((arg) => (typeof arg === 'function' ? (arg as () => unknown)() : arg))
    .map((arg) => (typeof arg === 'string' ? arg : arg instanceof Error ? arg.message : inspect(arg, { depth: 2, breakLength: Infinity })))
    .join(' ')
    .replace(ANSI, '')
    .trim();
  return name ? `mesh ${name}: ${text}` : `mesh: ${text}`;
}

/**
 * Mesh's logger, routed into the gateway's log: warnings and errors become lines of the gateway's
 * stream (plain text, so a JSON log stays one JSON object a line); Mesh's info chatter (schema
 * generation steps) and debug output, which can print upstream requests with their keys, are dropped.
 */
export function createMeshLogger(log: GatewayLog, name = ''): Logger {
  const child = (part: string | Record<string, string | number>) => {
    const label = typeof part === 'string' ? part : Object.entries(part).map(([key, value]) => `${key}=${value}`).join(',');
    return createMeshLogger(log, name ? `${name},${label}` : label);
  };
  return {
    name,
    log: () => undefined,
    info: () => undefined,
    debug: () => undefined,
    warn: (...args) => log(lineOf(name, args), 'warn'),
    error: (...args) => log(lineOf(name, args), 'error'),
    child,
    addPrefix: child,
  };
}

/**
 * What Mesh does with a result's errors in production (an `onExecute` hook of its own, so for
 * requests through yoga only): each error's first cause that is no GraphQL error (a refused
 * connection, say) goes to its logger. The direct lane tells its answers to this, so their causes
 * are logged alike.
 */
export function logErrorCauses(logger: Pick<Logger, 'error'>, errors: readonly unknown[]): void {
  for (const error of errors) {
    let cause: unknown = error;
    while (cause instanceof GraphQLError) cause = cause.originalError;
    if (cause) logger.error(cause);
  }
}
