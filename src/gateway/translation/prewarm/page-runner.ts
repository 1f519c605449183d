import { parse, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { TranslationRuntime } from '../translation-runtime.ts';
import { planCataloguePage, type CataloguePage, type CataloguePagePlan } from './catalogue-page.ts';

/** What prewarming executes its pages with: the gateway's mesh as it is now (it may be swapped while running). */
export interface PrewarmTarget {
  /** Runs an operation as Mesh runs a reader's: the link, its batching and its cache included. */
  execute(document: DocumentNode, variables: Record<string, unknown>, context: object): Promise<ExecutionResult> | ExecutionResult;
  schema: GraphQLSchema;
  /** Lets the mesh go once the page has run (a swapped-out mesh is disposed when nothing runs on it). */
  release?(): void;
}

/** One page run: what it read, and the translation calls it made. */
export interface PageRun {
  page: CataloguePage;
  calls: number;
}

export interface PageRunner {
  /** The page plan of a schema (made once per schema). */
  planFor(schema: GraphQLSchema): CataloguePagePlan | { reason: string };
  /** One page of one language, executed as a request of its own; undefined when stopped or the schema cannot carry it. */
  run(language: string, cursor: string | null, size: number): Promise<PageRun | undefined>;
}

export function createPageRunner(target: () => PrewarmTarget | undefined, calls: TranslationRuntime['calls'], signal: AbortSignal): PageRunner {
  let planned: { schema: GraphQLSchema; plan: CataloguePagePlan | { reason: string }; document?: DocumentNode } | undefined;
  const planOf = (schema: GraphQLSchema) => {
    if (planned?.schema !== schema) {
      const plan = planCataloguePage(schema);
      planned = { schema, plan, document: 'document' in plan ? parse(plan.document) : undefined };
    }
    return planned;
  };
  return {
    planFor: (schema) => planOf(schema).plan,
    async run(language, cursor, size) {
      const current = target();
      if (!current) return undefined;
      const { plan, document } = planOf(current.schema);
      if (!('document' in plan) || !document) {
        current.release?.();
        return undefined;
      }
      // A request of its own: its calls are counted apart from readers' (the call gate keys on it),
      // and stopping the gateway aborts it.
      const request = new Request('http://gateway.internal/translation-prewarm', { signal });
      const context = { request };
      let result: ExecutionResult;
      try {
        result = await current.execute(document, plan.variables(size, cursor, language), context);
      } catch (error) {
        result = { errors: [{ message: String(error), extensions: { code: 'INTERNAL_SERVER_ERROR' } }] as unknown as ExecutionResult['errors'] };
      } finally {
        current.release?.();
      }
      return { page: plan.read(result as Parameters<CataloguePagePlan['read']>[0], size, cursor), calls: calls.madeFor(request) };
    },
  };
}
