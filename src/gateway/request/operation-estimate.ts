/**
 * What an operation will cost and read, worked out from its document and variables before it runs: what the
 * operation guards decide on (execution/shape/operation-cost.ts computes it).
 */
export interface OperationEstimate {
  /** Weighted field count, multiplied through the number of items each list may return (listSize). */
  cost: number;
  rootFields: number;
  /** Whether any field reaches the translation service. */
  usesTranslation: boolean;
  /**
   * The longest string among all argument values (nested input fields and lists included): `name`
   * the argument (`filter.tags` for an input field), `path` where in it (`texts[3]`, `filter.tags[0]`).
   */
  longestArgument?: { name: string; path: string; length: number };
  /** The argument values of every field given any, as the executor will coerce them, in document order. */
  fieldArguments: { coordinate: string; args: Record<string, unknown> }[];
  /** The variables as the executor will coerce them; undefined when they do not coerce. */
  coercedVariables?: Record<string, unknown>;
  /**
   * Variables read by `@skip(if:)` or `@include(if:)` that coerce to null (a nullable variable with a
   * default, sent as null): the executor would fail on them, since `if` takes only true or false.
   */
  nullConditions: string[];
}
