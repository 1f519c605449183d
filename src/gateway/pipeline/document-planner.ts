import { BREAK, visit, type DocumentNode, type GraphQLError, type GraphQLSchema } from 'graphql';
import type { RequestHead } from '../request/observed-request.ts';
import type { PreparedOperation, PreparedOperations } from '../execution/forward/prepared-operations.ts';
import type { SingleSourceFastPath } from '../execution/forward/single-source-fast-path.ts';
import type { DelegatedRuns } from '../execution/delegate/delegated-run.ts';

/** The engine's own parse and validate, as envelop composes them from every plugin of yoga's (the shape of `yoga.getEnveloped()`). */
export interface EnvelopedDocumentChecks {
  parse(source: string): unknown;
  validate(schema: GraphQLSchema, document: DocumentNode): readonly GraphQLError[];
  schema: GraphQLSchema;
}

export interface DocumentPlannerOptions {
  /**
   * The engine's document checks: its parse and validate run the same hooks as for a request yoga
   * serves (Mesh's, the token, depth, alias and directive limits), against the public schema.
   */
  checks: (context: PlanningContext) => EnvelopedDocumentChecks;
  /** What forwards an operation the problems service answers whole; absent when the fast path is off. */
  forwarding?: Pick<SingleSourceFastPath, 'prepare'>;
  /** What runs the others through Mesh's own execution (execution/delegate/delegated-run.ts). */
  delegated: DelegatedRuns;
  /** The table of plans, one per engine (the fast path's, which yoga's forwarding fills too, when it is on). */
  prepared: PreparedOperations;
  /** With TRUSTED_DOCUMENTS: the manifest's texts, the only texts that may run. */
  trustedTexts?: ReadonlySet<string>;
}

/**
 * What the engine's checks are given, as yoga gives them for a request: yoga's own hooks mark a parse
 * error with its status only when they see a request, and the engine keeps parse and validation
 * results for the next request of the text (yoga's parser cache), so they must be marked here as
 * there.
 */
export interface PlanningContext {
  request: RequestHead;
  params: { query: string; operationName?: string | null };
}

/** Plans a text the first time it is asked: what forwards or delegates it, or null to leave it to yoga. */
export type DocumentPlanner = (query: string, operationName: string | null | undefined, request: RequestHead) => PreparedOperation | null;

/**
 * Plans a document the first time the front door sees its text, as it plans it the thousandth time:
 * parsed and validated once by the engine's own checks, then forwarded whole when the problems
 * service answers it alone, in one piece, else delegated by Mesh's own execution
 * (prepared-operations.ts keeps the plan). A text that does not parse or validate, that is not
 * trusted, that asks for introspection or incremental delivery, or that is no query is planned as
 * yoga's (null), which words its errors and serves it. So which way a request takes depends on what
 * its document is, never on whether the process saw it before.
 *
 * Introspection stays yoga's: yoga applies the introspection switch per request (a validation rule
 * it adds once it has seen the request), which the checks here do not see.
 */
export function documentPlanner({ checks, forwarding, delegated, prepared, trustedTexts }: DocumentPlannerOptions): DocumentPlanner {
  const planOf = (query: string, operationName: string | null | undefined, request: RequestHead): PreparedOperation | null => {
    // Only the manifest's texts: the persisted documents have turned a hash, an id or another
    // printing of an entry into the entry's own text by now; anything else is yoga's to refuse.
    if (trustedTexts && !trustedTexts.has(query)) return null;
    try {
      const { parse, validate, schema } = checks({ request, params: { query, operationName } });
      const document = parse(query) as DocumentNode;
      if (validate(schema, document).length > 0 || asksIntrospection(document)) return null;
      return forwarding?.prepare(schema, document, operationName) ?? delegated.prepare(schema, document, operationName) ?? null;
    } catch {
      // A syntax error or a limit met while parsing: yoga words it.
      return null;
    }
  };
  return (query, operationName, request) => {
    if (!prepared.keeps(query)) return null;
    const plan = planOf(query, operationName, request);
    prepared.remember(query, operationName, plan);
    return plan;
  };
}

/** Whether the document selects `__schema` or `__type` anywhere (`__typename` is no introspection of the schema). */
function asksIntrospection(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Field(node) {
      if (node.name.value !== '__schema' && node.name.value !== '__type') return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}
