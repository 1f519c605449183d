import { CriticalityLevel, diff, type Change } from '@graphql-inspector/core';
import type { GraphQLSchema } from 'graphql';

/** How a change affects clients of the gateway, worst first. */
export type ChangeImpact = 'breaking' | 'dangerous' | 'safe';

export interface SchemaChange {
  impact: ChangeImpact;
  /** What changed, in GraphQL Inspector's words (e.g. "Field 'old' was removed from object type 'Query'"). */
  message: string;
  /** The coordinate that changed, e.g. `Query.old`. */
  path?: string;
}

const IMPACT: Record<CriticalityLevel, ChangeImpact> = {
  [CriticalityLevel.Breaking]: 'breaking',
  [CriticalityLevel.Dangerous]: 'dangerous',
  [CriticalityLevel.NonBreaking]: 'safe',
};

const ORDER: ChangeImpact[] = ['breaking', 'dangerous', 'safe'];

/**
 * Every change between two versions of the problems schema, with what it means for clients
 * (GraphQL Inspector's rules: a removed field breaks them, a new enum value is dangerous, a new field
 * is safe), breaking ones first.
 */
export async function diffSchemas(before: GraphQLSchema, after: GraphQLSchema): Promise<SchemaChange[]> {
  const changes: Change[] = await diff(before, after);
  return changes
    .map((change) => ({ impact: IMPACT[change.criticality.level], message: change.message, ...(change.path ? { path: change.path } : {}) }))
    .sort((a, b) => ORDER.indexOf(a.impact) - ORDER.indexOf(b.impact) || a.message.localeCompare(b.message));
}

/** One line per change, marked by its impact, capped so a large change stays readable. */
export function formatSchemaDiff(changes: SchemaChange[], limit = 40): string {
  if (changes.length === 0) return 'no changes';
  const counts = ORDER.map((impact) => `${changes.filter((change) => change.impact === impact).length} ${impact}`).join(', ');
  const lines = changes.slice(0, limit).map((change) => `${change.impact.toUpperCase().padEnd(9)} ${change.message}`);
  if (changes.length > limit) lines.push(`… and ${changes.length - limit} more`);
  return [`${changes.length} change(s): ${counts}`, ...lines].join('\n');
}
