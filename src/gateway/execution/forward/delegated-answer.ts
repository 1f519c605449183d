import { GraphQLError, type ExecutionResult, type SelectionSetNode } from 'graphql';
import { ErrorCode, UpstreamError, type ServiceName } from '../../errors.ts';
import { selectionPlan, type SelectionPlan } from '../shape/selection-plan.ts';
import type { ForwardableOperation } from './forwardable-operation.ts';

/** What the answer is about: the service, the operation forwarded, its coerced variables, the name of the root type. */
export interface ForwardedRequest {
  service: ServiceName;
  forwarded: ForwardableOperation;
  variables: Record<string, unknown>;
  rootTypeName: string;
  /** What it selects with its variables, once worked out (its root fields and its answer read the same one). */
  plan?: SelectionPlan;
}

interface UpstreamAnswerError {
  message: string;
  path?: (string | number)[];
  extensions?: Record<string, unknown>;
}

/**
 * The source's answer to a forwarded operation, in the form the delegated path gives it, so that
 * nothing after execution can tell the two apart. The data is the source's, cut down to what the
 * client selected (selectedData). Its errors, which the error step has already reduced to the
 * gateway's terms, lose their `locations` (the delegated path reports none for a source's errors)
 * and come grouped by root field in the operation's order, as the delegated path raises them; an
 * error without a path belongs to every root field, as the delegated path places it. When the source
 * nulled all of `data` (a failing non-null root field), each root field is null on its own, as in the
 * public schema, where every root field is nullable.
 */
export function answerAsDelegated(request: ForwardedRequest, answer: { data?: unknown; errors?: UpstreamAnswerError[] }): ExecutionResult {
  const data = isObject(answer.data) ? selectedData(answer.data, request) : undefined;
  const upstreamErrors = answer.errors ?? [];
  if (upstreamErrors.length === 0) {
    if (data) return { data };
    // No data and no error breaks the GraphQL contract: the source's answer cannot be used.
    return failureAsDelegated(request, unusableAnswer(request.service));
  }
  const fields = rootFieldsOf(request);
  const keys = new Set(fields.filter((field) => !field.typename).map((field) => field.key));
  const errors: GraphQLError[] = [];
  for (const key of keys) {
    for (const error of upstreamErrors) {
      if (!error.path) errors.push(answerError(error, [key]));
      else if (error.path[0] === key) errors.push(answerError(error, error.path));
    }
  }
  for (const error of upstreamErrors) if (error.path && !keys.has(String(error.path[0]))) errors.push(answerError(error, error.path));
  return { errors, data: data ?? nullData(request, fields) };
}

/**
 * A forwarded call that failed as a whole (the source down, slow, answering 5xx or garbage): as on
 * the delegated path, every root field is null with the call's error, and `__typename` still answers.
 */
export function failureAsDelegated(request: ForwardedRequest, failure: unknown): ExecutionResult {
  const fields = rootFieldsOf(request);
  const cause = failure instanceof Error ? failure : new Error(String(failure));
  const extensions = cause instanceof GraphQLError ? cause.extensions : undefined;
  const errors = fields
    .filter((field) => !field.typename)
    .map((field) => new GraphQLError(cause.message, { path: [field.key], extensions, originalError: cause }));
  return { errors, data: nullData(request, fields) };
}

function answerError({ message, extensions }: UpstreamAnswerError, path: readonly (string | number)[]): GraphQLError {
  return new GraphQLError(message, { path, extensions });
}

function unusableAnswer(service: ServiceName): UpstreamError {
  return new UpstreamError(`The ${service} service answered with a body the gateway could not use.`, { code: ErrorCode.UpstreamError, service, status: 200 });
}

function nullData({ rootTypeName }: ForwardedRequest, fields: RootField[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const { key, typename } of fields) data[key] = typename ? rootTypeName : null;
  return data;
}

export interface RootField {
  /** The response key (alias or name). */
  key: string;
  /** `__typename`, which the gateway answers itself. */
  typename: boolean;
}

/** The root fields the operation selects, by response key in order, as @skip and @include leave them. */
export function rootFieldsOf(request: ForwardedRequest): RootField[] {
  const plan = planOf(request);
  return plan.keys.map((key) => ({ key, typename: plan.fieldsOf(key)[0].name.value === '__typename' }));
}

/** Plans of operations that no @skip/@include makes depend on variables: the same for every request. */
const unconditionalPlans = new WeakMap<ForwardableOperation, SelectionPlan | null>();

/** What the operation selects with the request's variables (its root fields, what to keep of the source's data). */
function planOf(request: ForwardedRequest): SelectionPlan {
  const { forwarded, variables } = request;
  const make = (coerced?: Record<string, unknown>) =>
    selectionPlan([forwarded.operation.selectionSet], forwarded.fragments, coerced, { schema: forwarded.schema, type: forwarded.schema.getQueryType()! });
  let known = unconditionalPlans.get(forwarded);
  if (known === undefined) {
    known = hasConditions(forwarded) ? null : make();
    unconditionalPlans.set(forwarded, known);
  }
  if (known) return known;
  return (request.plan ??= make(variables));
}

/** Whether any selection of the operation or its fragments carries a directive (@skip/@include, the only ones forwarded). */
function hasConditions({ operation, fragments }: ForwardableOperation): boolean {
  const conditional = (selectionSet: SelectionSetNode | undefined): boolean =>
    selectionSet?.selections.some((selection) => Boolean(selection.directives?.length) || conditional('selectionSet' in selection ? selection.selectionSet : undefined)) ?? false;
  return conditional(operation.selectionSet) || Object.values(fragments).some((fragment) => conditional(fragment.selectionSet));
}

/**
 * The source's data cut down to what the operation selects: a field the client did not ask for
 * (a source adding `__typename`, or anything else) is dropped, as the delegated path drops it when
 * it resolves the client's fields from the source's answer. Values are kept as the source wrote them.
 */
function selectedData(data: Record<string, unknown>, request: ForwardedRequest): Record<string, unknown> {
  const project = (value: unknown, levelPlan: SelectionPlan): unknown => {
    if (Array.isArray(value)) return value.map((item) => project(item, levelPlan));
    if (!isObject(value)) return value;
    // On an interface or a union: what the object's own type was asked.
    const plan = levelPlan.of(value);
    const selected: Record<string, unknown> = {};
    for (const key of plan.keys) {
      if (!(key in value)) continue;
      const child = plan.child(key);
      selected[key] = child ? project(value[key], child) : value[key];
    }
    return selected;
  };
  return project(data, planOf(request)) as Record<string, unknown>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
