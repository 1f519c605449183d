import { printSchema, type GraphQLSchema } from 'graphql';
import { sha256Of } from '../../shared/hash.ts';
import type { GatewaySettings } from '../settings.ts';

/**
 * Everything that decides whether a request may run at all, as one digest: the public schema, the
 * operation limits, introspection and trusted documents. Cached answers are kept under it, so a
 * replica never serves an answer it would have refused to compute (another replica's settings, or
 * this one's before a rolling change).
 */
export function admissionPolicyOf(schema: GraphQLSchema, settings: GatewaySettings, trustedDocuments: Record<string, string> | undefined): string {
  const { introspection, maxDepth, maxAliases, maxTokens, maxDirectives, maxRootFields, maxCost, maxArgumentLength, maxBatchOperations, translationMaxTextLength } = settings;
  const limits = { introspection, maxDepth, maxAliases, maxTokens, maxDirectives, maxRootFields, maxCost, maxArgumentLength, maxBatchOperations, translationMaxTextLength };
  const trusted = trustedDocuments ? Object.keys(trustedDocuments).sort() : null;
  return sha256Of(printSchema(schema), JSON.stringify(limits), JSON.stringify(trusted));
}
