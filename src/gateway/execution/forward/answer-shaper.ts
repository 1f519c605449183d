import type { FragmentDefinitionNode, GraphQLError, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { LEFT_TO_EXECUTION, Walk } from './answer-completion.ts';
import { compileAnswerPlans } from './answer-plan.ts';
import { completesCleanly, fieldsUnchanged } from './answer-checks.ts';
import { AnswerWriter } from './answer-writer.ts';
import type { LinkCompletionOptions } from './linked-answer.ts';

/**
 * What the shaper made of a source's data: the answer's data (in selection order) and its errors,
 * and whether it is the source's data as it came (`unchanged`: no field moved, filled or coerced).
 * `text`: the JSON text of `{"data":…}` when the shaper wrote it (no errors); `data` is then read
 * from it only when something asks for it.
 */
export interface ShapedAnswer {
  readonly data: Record<string, unknown> | null;
  errors?: GraphQLError[];
  unchanged: boolean;
  text?: string;
}

/**
 * Completes a source's data for one operation as the gateway's execution would (linked-answer.ts),
 * without executing it: undefined when the data holds something the shaper leaves to execution (an
 * interface or union value it cannot type, a scalar whose serialization fails), so that the caller
 * completes it the slow way and the answer is the same either way.
 */
export interface AnswerShaper {
  shape(data: Record<string, unknown>, variables: Record<string, unknown>, context: unknown): ShapedAnswer | Promise<ShapedAnswer | undefined> | undefined;
}

export interface AnswerShaperOptions {
  schema: GraphQLSchema;
  /** The operation and the document's fragments by name, as the forwardable operation carries them. */
  operation: OperationDefinitionNode;
  fragments: Record<string, FragmentDefinitionNode>;
  /** The links the answer may hold, and the resolvers of their result types' fields. @default none */
  links?: LinkCompletionOptions;
  /**
   * Whether a null in a non-null field is reported without `locations`, as delegation reports it
   * for a plain forwarded operation (single-source-fast-path.ts); a linked answer keeps them, as
   * execution gives them.
   */
  nullErrorsWithoutLocations: boolean;
}

/**
 * Compiles, once per operation and schema, what completes the source's data for it (answer-plan.ts):
 * each value checked as completion checks it (a leaf read as delegation reads it: parsed as input of
 * its type, null when it cannot be, then serialized; lists; interfaces and unions by `__typename`),
 * a null in a non-null field made an error at its path and propagated to the nearest nullable
 * parent, links resolved from the fields fetched for them (answer-completion.ts). Closures rather
 * than generated code: the plan is a tree walked by small monomorphic functions, with nothing
 * generated from the client's text to review or to trust.
 *
 * Three ways out, cheapest first: an answer a well-behaved source gives (every key in selection
 * order, nothing else, every value one its type gives back unchanged, no link) is recognised by one
 * walk without allocating, and served as it came; data that completes without a change of value or
 * an error is written as JSON text straight from the source's data, links filled in place
 * (answer-writer.ts), with no answer object; anything else is completed into objects, errors worded
 * as execution words them. Undefined when the operation is not one the shaper completes (a mutation,
 * a non-null link, a response key `__proto__`): the caller executes it.
 */
export function compileAnswerShaper({ schema, operation, fragments, links, nullErrorsWithoutLocations }: AnswerShaperOptions): AnswerShaper | undefined {
  const plans = compileAnswerPlans({ schema, operation, fragments, links });
  if (!plans) return undefined;
  const { rootFieldsFor } = plans;
  const hasLinks = Boolean(links?.links.size);
  return {
    shape(data, variables, context) {
      const rootFields = rootFieldsFor(variables);
      if (!rootFields) return undefined;
      if (!hasLinks && fieldsUnchanged(data, rootFields)) return { data, unchanged: true };
      const walk = new Walk(schema, operation, fragments, variables, context, nullErrorsWithoutLocations);
      if (completesCleanly(data, rootFields)) {
        const writer = new AnswerWriter(walk);
        writer.root(rootFields, data);
        if (walk.pending.length === 0) return walk.leftToExecution ? undefined : writtenAnswer(writer.text(), walk.errors);
        return walk.settled().then(() => (walk.leftToExecution ? undefined : writtenAnswer(writer.text(), walk.errors)));
      }
      let shaped: Record<string, unknown> | null;
      try {
        shaped = walk.object(rootFields, data, undefined);
      } catch (error) {
        if (error === LEFT_TO_EXECUTION) return undefined;
        // A non-null root field failed: the whole data is null, as execution gives it.
        walk.errors.push(error as GraphQLError);
        shaped = null;
      }
      if (walk.pending.length === 0) return walk.leftToExecution ? undefined : answerOf(shaped, walk.errors);
      return walk.settled().then(() => (walk.leftToExecution ? undefined : answerOf(shaped, walk.errors)));
    },
  } satisfies AnswerShaper as AnswerShaper;
}

function answerOf(data: Record<string, unknown> | null, errors: GraphQLError[]): ShapedAnswer {
  return errors.length > 0 ? { data, errors, unchanged: false } : { data, unchanged: false };
}

/** A written answer: its text when it has no error (a link's error needs the data as objects, masked and placed). */
function writtenAnswer(text: string, errors: GraphQLError[]): ShapedAnswer {
  if (errors.length > 0) return { data: (JSON.parse(text) as { data: Record<string, unknown> }).data, errors, unchanged: false };
  let data: Record<string, unknown> | undefined;
  return {
    get data() {
      return (data ??= (JSON.parse(text) as { data: Record<string, unknown> }).data);
    },
    unchanged: false,
    text,
  };
}
