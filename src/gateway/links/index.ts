import { getNamedType, isObjectType, type GraphQLSchema } from 'graphql';

/**
 * The links between the two sources, and what each needs from the problems schema. The problems
 * schema is someone else's: when it lacks what a link extends, the gateway leaves that link out
 * (and says so) instead of failing to start.
 */
export interface LinkDefinition {
  /** How the link is named in logs, e.g. `Problem.translation`. */
  name: string;
  /** Paths as written in .meshrc.yaml, so the loader can leave them out. */
  typeDefs: string;
  resolvers: string;
  /** The object type the link extends and the fields its resolver reads. */
  requires: { type: string; fields: string[] };
}

export const LINKS: LinkDefinition[] = [
  {
    name: 'Problem.translation',
    typeDefs: './src/gateway/links/problem-translation.graphql',
    resolvers: './src/gateway/links/problem-translation.ts',
    requires: { type: 'Problem', fields: ['title', 'statement'] },
  },
  {
    name: 'Problem.translations',
    typeDefs: './src/gateway/links/problem-translations.graphql',
    resolvers: './src/gateway/links/problem-translations.ts',
    // The statement: curated and cached translations count only for the statement as it is.
    requires: { type: 'Problem', fields: ['title', 'statement'] },
  },
];

/** Why `link` cannot be built on `schema`, or undefined when it can. */
export function missingForLink(schema: GraphQLSchema, link: LinkDefinition): string | undefined {
  const { type: typeName, fields } = link.requires;
  const type = schema.getType(typeName);
  if (!type) return `the problems schema has no ${typeName} type`;
  if (!isObjectType(type)) return `${typeName} in the problems schema is not an object type`;
  const missing = fields.filter((field) => !type.getFields()[field]);
  if (missing.length > 0) return `${typeName} in the problems schema has no ${missing.join(' or ')} field`;
  // The resolver translates these fields as text, so they must be strings.
  const notText = fields.filter((field) => getNamedType(type.getFields()[field].type).name !== 'String');
  if (notText.length > 0) return `${typeName}.${notText.join(', ')} in the problems schema is not a String`;
  return undefined;
}
