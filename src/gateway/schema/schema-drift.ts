import { UpstreamError } from '../errors.ts';
import type { CallHooks, ServiceStep } from '../upstream/upstream-call.ts';
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
 * came as an HTTP 400 (the error step raises it) or as errors in a 200 answer. Placed after the
 * problems cache (upstream-calls.ts, `watch`), it sees only what the service has just answered, and
 * never a kept answer, which has no errors. It only looks at what is at hand when the call settles
 * (the answer the error step has read and parsed, or the error it raised): nothing to wait for.
 */
export function watchSchemaDrift(onDrift: () => void): ServiceStep {
  const settled: CallHooks['settled'] = (_call, _ticket, answer, error) => {
    if (!answer) {
      const said = error instanceof UpstreamError ? upstreamCauseOf(error) : undefined;
      if (said && isValidationRefusal(said)) onDrift();
      return;
    }
    let body: { errors?: { message?: unknown }[] } | undefined;
    try {
      body = answer.parsedJson() as typeof body;
    } catch {
      return;
    }
    if (Array.isArray(body?.errors) && body.errors.some((each) => typeof each?.message === 'string' && isValidationRefusal(each.message))) onDrift();
  };
  return { forService: (service) => (service === 'problems' ? { settled } : undefined) };
}
