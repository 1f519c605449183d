import { LRUCache } from 'lru-cache';
import type { DocumentNode, ExecutionResult, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import type { RequestHead } from '../../request/observed-request.ts';
import type { GatewayRequest } from '../../request/gateway-request.ts';
import type { AnswerShaper } from './answer-shaper.ts';

/** The context a prepared operation runs with: the client's request head and request object, as the upstream steps read them. */
export interface PreparedContext {
  request: RequestHead;
  gateway: GatewayRequest;
}

/** Runs a prepared operation for one client request. */
export type PreparedRun = (context: PreparedContext) => Promise<ExecutionResult>;

/**
 * Where a forwarded result carries the JSON text of `{"data":…}` when it is the source's answer as
 * it came (answer-shaper.ts found nothing to change): the bytes to write, with no stringify. A
 * symbol, so that nothing serializing the result itself ever sees it.
 */
export const ANSWER_TEXT = Symbol('answer text');

/** Whether a result has data, read without parsing a written answer's text back into objects. */
export function hasData(result: ExecutionResult): boolean {
  return (result as { [ANSWER_TEXT]?: string })[ANSWER_TEXT] !== undefined || result.data != null;
}

/** The JSON text of a result without errors, `{"data":…}` (with its `extensions`, if any): the source's own bytes when they need no change. */
export function answerText(result: ExecutionResult): string {
  return (result as { [ANSWER_TEXT]?: string })[ANSWER_TEXT] ?? JSON.stringify(result.extensions ? { data: result.data, extensions: result.extensions } : { data: result.data });
}

/**
 * How a plan answers: `forwarded` whole to the problems service (forward/), or `delegated` by
 * Mesh's own execution (delegate/delegated-run.ts), which logs its errors' causes itself (Mesh's
 * onExecute hook, as for yoga's requests).
 */
export type PlanStrategy = 'forwarded' | 'delegated';

/**
 * An operation parsed, validated and let through every check that does not depend on variables:
 * what it takes to answer the same text again without yoga, forwarded or delegated.
 */
export interface PreparedOperation {
  strategy: PlanStrategy;
  /** The public schema it was validated against. */
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /**
   * What completes the source's answer to it against the schema, compiled once with the plan
   * (answer-shaper.ts); undefined when it is completed by execution over the source's data.
   */
  shaper?: AnswerShaper;
  /**
   * What runs it with these client variables, or undefined when, with them, it must go yoga's way:
   * variables that do not coerce (yoga words the error), or, forwarded, @skip/@include leaving no
   * source field.
   * `coerced`: the same variables already coerced against the schema (by the cost estimate), if known.
   */
  bind(variables: Record<string, unknown> | undefined, coerced?: Record<string, unknown>): PreparedRun | undefined;
}

export interface PreparedOperationsOptions {
  /** Most texts kept. @default 1000 */
  maxTexts?: number;
  /** Most characters kept, all texts together (each counted twice, for its parsed document). @default 8 Mi */
  maxCharacters?: number;
  /** Longer texts are not kept (they go through yoga every time). @default 64 Ki */
  maxTextLength?: number;
}

export interface PreparedOperations {
  /**
   * Records the plan of the text `query` with `operationName` (the text as the client sent it): what
   * forwards or delegates it, or null for a text the straight path leaves to yoga (deferred, refused).
   */
  remember(query: string, operationName: string | null | undefined, prepared: PreparedOperation | null): void;
  /** Whether a plan of this text would be kept (a very long text is planned by yoga every time). */
  keeps(query: string): boolean;
  /** The plan recorded for the text; undefined when it has none yet. */
  find(query: string, operationName: string | null | undefined): PreparedOperation | null | undefined;
}

/**
 * The plans of the texts the front door has seen (pipeline/front-door/): made once per text,
 * operation name and schema (one table per engine), the first time the text is asked, by the front
 * door itself (pipeline/document-planner.ts) or by the fast path while yoga executes it. A text is
 * planned to be forwarded only once its document has passed everything that does not depend on
 * variables: parsing, validation, depth, aliases, tokens, directives, introspection, trusted
 * documents. What does depend on them (limits, coercion) is checked again on every request.
 * Bounded by count and by size, least recently used first; one text keeps one entry per operation name.
 */
export function createPreparedOperations({ maxTexts = 1000, maxCharacters = 8 * 1024 * 1024, maxTextLength = 64 * 1024 }: PreparedOperationsOptions = {}): PreparedOperations {
  // A text's size stands for its parsed document too (about as large again); the bound keeps a
  // client sending many long texts (a comment is free of every operation limit) from growing it.
  const byText = new LRUCache<string, Map<string | null, PreparedOperation | null>>({ max: maxTexts, maxSize: maxCharacters, sizeCalculation: (_, text) => 2 * text.length + 256 });
  return {
    keeps: (query) => query.length <= maxTextLength,
    remember(query, operationName, prepared) {
      if (query.length > maxTextLength) return;
      let byName = byText.get(query);
      if (!byName) byText.set(query, (byName = new Map()));
      // A text left to yoga may be forwarded after all once yoga's fast path has forwarded it; never the reverse.
      if (prepared || !byName.get(operationName ?? null)) byName.set(operationName ?? null, prepared);
    },
    // No name (null or absent) is not the name "": yoga finds no operation called "".
    find: (query, operationName) => byText.get(query)?.get(operationName ?? null),
  };
}
