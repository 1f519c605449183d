import { LRUCache } from 'lru-cache';
import { BREAK, GraphQLError, visit, type DocumentNode, type GraphQLSchema } from 'graphql';
import { ErrorCode } from '../errors.ts';
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

/** The engine's errors for a document it refused (parse or validation), answered by the front door as yoga would answer them. */
export interface DocumentErrors {
  errors: readonly GraphQLError[];
  /** The document, when it parsed (its operation names what the request log and metrics record, as yoga's observation does). */
  document?: DocumentNode;
}

/**
 * Plans a text the first time it is asked: what forwards or delegates it, the engine's errors when
 * it does not parse or validate, or null to leave it to yoga.
 */
export type DocumentPlanner = (query: string, operationName: string | null | undefined, request: RequestHead) => PreparedOperation | DocumentErrors | null;

/**
 * Plans a document the first time the front door sees its text, as it plans it the thousandth time:
 * parsed and validated once by the engine's own checks, then forwarded whole when the problems
 * service answers it alone, in one piece, else delegated by Mesh's own execution
 * (prepared-operations.ts keeps the plan). A text that does not parse or validate gets the engine's
 * own errors (kept here per text, as yoga's parser and validation caches keep them), which the
 * door answers as yoga would. A text that is not trusted, that asks for introspection or
 * incremental delivery, or that is no query is planned as yoga's (null). So which way a request
 * takes depends on what its document is, never on whether the process saw it before.
 *
 * Introspection stays yoga's: yoga applies the introspection switch per request (a validation rule
 * it adds once it has seen the request), which the checks here do not see; so is a document whose
 * errors depend on the request (its method, its operation name: no operation to run, a mutation by
 * GET), and an error that is no GraphQL error (yoga words it).
 */
export function documentPlanner({ checks, forwarding, delegated, prepared, trustedTexts }: DocumentPlannerOptions): DocumentPlanner {
  // By text: parsing and validation do not depend on the operation name or the request.
  const refused = new LRUCache<string, DocumentErrors>({ maxSize: MAX_REFUSED_BYTES, sizeCalculation: (_, query) => 2 * query.length + 1024 });
  const planOf = (query: string, operationName: string | null | undefined, request: RequestHead): PreparedOperation | DocumentErrors | null => {
    // Only the manifest's texts: the persisted documents have turned a hash, an id or another
    // printing of an entry into the entry's own text by now; anything else is yoga's to refuse.
    if (trustedTexts && !trustedTexts.has(query)) return null;
    let document: DocumentNode;
    let checked: EnvelopedDocumentChecks;
    try {
      checked = checks({ request, params: { query, operationName } });
      document = checked.parse(query) as DocumentNode;
    } catch (error) {
      return isParseFailure(error) ? keptRefusal(query, { errors: [error] }) : null;
    }
    const { validate, schema } = checked;
    const errors = validate(schema, document);
    if (asksIntrospection(document)) return null;
    if (errors.length > 0) return keptRefusal(query, { errors, document });
    return forwarding?.prepare(schema, document, operationName) ?? delegated.prepare(schema, document, operationName) ?? null;
  };
  const keptRefusal = (query: string, errors: DocumentErrors): DocumentErrors => {
    refused.set(query, errors);
    return errors;
  };
  return (query, operationName, request) => {
    if (!prepared.keeps(query)) return null;
    const known = refused.get(query);
    if (known) return known;
    const plan = planOf(query, operationName, request);
    if (!plan || 'bind' in plan) prepared.remember(query, operationName, plan);
    return plan;
  };
}

/** Most the refused texts kept take (counting two bytes a character). */
const MAX_REFUSED_BYTES = 4 * 1024 * 1024;

/**
 * A syntax error or the token limit met while parsing, as the engine marks them: the same whatever
 * the request. Not "no operation to run" or a mutation by GET, which yoga's parse hook throws for
 * one request's operation name and method.
 */
function isParseFailure(error: unknown): error is GraphQLError {
  if (!(error instanceof GraphQLError)) return false;
  const code = error.extensions?.code;
  return code === 'GRAPHQL_PARSE_FAILED' || code === ErrorCode.OperationLimitExceeded;
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
