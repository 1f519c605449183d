import { UpstreamError } from '../errors.ts';
import type { UpstreamStep } from '../upstream/upstream-call.ts';
import { upstreamCauseOf } from '../upstream/upstream-errors.ts';

/**
 * graphql-js's words (which most GraphQL servers use) for an operation that does not fit the
 * schema: a field, argument, type or enum value it no longer has, an argument it now requires.
 */
const VALIDATION_MESSAGE =
  /^(Cannot query field|Unknown argument|Unknown type|Unknown directive|Unknown fragment|Field "[^"]+" argument "[^"]+" of type "[^"]+" is required|Field "[^"]+" must not have a selection|Field "[^"]+" of type "[^"]+" must have a selection|Variable "\$[^"]+" of type "[^"]+" used in position|Fragment cannot be spread|Argument "[^"]+" has invalid value|Value "[^"]+" does not exist in "[^"]+" enum)/;

/** Whether a message the problems service wrote is its validation refusing the operation. */
export function isValidationRefusal(message: string): boolean {
  return VALIDATION_MESSAGE.test(message);
}

/**
 * Watches problems answers for the service refusing, as invalid, an operation the gateway had
 * validated against the schema it serves: its schema changed. `onDrift` is told (the live schema
 * debounces the check it triggers); the call's outcome is passed on untouched, whether the refusal
 * came as an HTTP 400 (the error step after this one raises it) or as errors in a 200 answer.
 * Placed after the problems cache (upstream-calls.ts, `watch`), it sees only what the service has
 * just answered, parsed already by the error step (only an answer whose errors it rewrote is parsed
 * again, here), and never a kept answer, which has no errors.
 */
export function watchSchemaDrift(onDrift: () => void): UpstreamStep {
  return async (call, next) => {
    if (call.service !== 'problems') return next(call);
    let answer;
    try {
      answer = await next(call);
    } catch (error) {
      const said = error instanceof UpstreamError ? upstreamCauseOf(error) : undefined;
      if (said && isValidationRefusal(said)) onDrift();
      throw error;
    }
    let body: { errors?: { message?: unknown }[] } | undefined;
    try {
      body = (await answer.json()) as typeof body;
    } catch {
      return answer;
    }
    if (Array.isArray(body?.errors) && body.errors.some((error) => typeof error?.message === 'string' && isValidationRefusal(error.message))) onDrift();
    return answer;
  };
}
