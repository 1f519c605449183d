import type { DocumentNode, GraphQLError, GraphQLSchema } from 'graphql';
import type { RequestHead } from '../request/observed-request.ts';
import type { PreparedOperation } from '../execution/forward/prepared-operations.ts';
import type { SingleSourceFastPath } from '../execution/forward/single-source-fast-path.ts';

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
  /** What forwards an operation the problems service answers whole, and the table of plans it fills. */
  forwarding: Pick<SingleSourceFastPath, 'prepare' | 'prepared'>;
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

/** Plans a text the first time it is asked: what forwards it, or null to leave it to yoga. */
export type DocumentPlanner = (query: string, operationName: string | null | undefined, request: RequestHead) => PreparedOperation | null;

/**
 * Plans a document the first time the front door sees its text, as it plans it the thousandth time:
 * parsed and validated once by the engine's own checks, then forwarded whole when the problems
 * service answers it alone, in one piece (prepared-operations.ts keeps the plan). A text that does
 * not parse or validate, that is not trusted, or that needs Mesh's delegation or incremental
 * delivery is planned as yoga's (null), which words its errors and delegates it. So which way a
 * request takes depends on what its document is, never on whether the process saw it before.
 *
 * Introspection is not forwarded (forwardable-operation.ts), so the introspection switch, which
 * yoga applies per request, needs no rule here.
 */
export function documentPlanner({ checks, forwarding, trustedTexts }: DocumentPlannerOptions): DocumentPlanner {
  const planOf = (query: string, operationName: string | null | undefined, request: RequestHead): PreparedOperation | null => {
    // A trusted document asked by another printing of it is yoga's, which finds the manifest's text.
    if (trustedTexts && !trustedTexts.has(query)) return null;
    try {
      const { parse, validate, schema } = checks({ request, params: { query, operationName } });
      const document = parse(query) as DocumentNode;
      if (validate(schema, document).length > 0) return null;
      return forwarding.prepare(schema, document, operationName) ?? null;
    } catch {
      // A syntax error or a limit met while parsing: yoga words it.
      return null;
    }
  };
  return (query, operationName, request) => {
    if (!forwarding.prepared.keeps(query)) return null;
    const plan = planOf(query, operationName, request);
    forwarding.prepared.remember(query, operationName, plan);
    return plan;
  };
}
