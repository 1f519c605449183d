import {
  getNamedType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
  type GraphQLArgument,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';

/** A small deterministic generator (mulberry32), so a failing case can be asked again by its seed. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface RandomOperationOptions {
  /** Values an argument or variable of a scalar type may take, by the type's name; some may be wrong on purpose. */
  scalars: Record<string, unknown[]>;
  /** Fields never selected (`Type.field`), e.g. those whose cost the limits would refuse. */
  skip?: ReadonlySet<string>;
  /** Deepest selection. @default 4 */
  maxDepth?: number;
  /** Most fields per selection set. @default 4 */
  maxFields?: number;
  /** How often an alias is the name of another field of the type (`title: slug`), the keys a link reads included. @default 0 */
  shadowingAliases?: number;
  /** Fields (`Type.field`) picked in half the picks where one of them may be. @default none */
  favoured?: ReadonlySet<string>;
  /** The root fields selected from, when not all of them. */
  rootFields?: ReadonlySet<string>;
}

export interface RandomOperation {
  query: string;
  variables: Record<string, unknown>;
}

/**
 * A random query over `schema`: aliases, inline fragments (on an interface's or a union's object
 * types too) and named fragments, `__typename`,
 * `@skip`/`@include` with literals and variables, arguments given inline or as variables (with or
 * without a value, so defaults and nulls are met), leaf values from `scalars` (wrong ones included).
 * Valid against the schema by construction, except where a value is wrong on purpose, which the
 * gateway must refuse the same way whatever path it takes.
 */
export function randomOperation(schema: GraphQLSchema, random: () => number, { scalars, skip = new Set(), maxDepth = 4, maxFields = 4, shadowingAliases = 0, favoured, rootFields }: RandomOperationOptions): RandomOperation {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const chance = (p: number) => random() < p;
  const variableDefinitions: string[] = [];
  const variables: Record<string, unknown> = {};
  const fragments: string[] = [];
  let names = 0;

  const valueOf = (type: GraphQLInputType, depth = 0): unknown => {
    if (isNonNullType(type)) return valueOf(type.ofType, depth);
    if (isListType(type)) return chance(0.2) ? null : Array.from({ length: Math.floor(random() * 3) }, () => valueOf(type.ofType, depth + 1));
    const named = getNamedType(type);
    if (isEnumType(named)) return pick(named.getValues()).name;
    if (isInputObjectType(named)) {
      const object: Record<string, unknown> = {};
      for (const field of Object.values(named.getFields())) {
        if (isNonNullType(field.type) || (depth < 2 && chance(0.4))) object[field.name] = valueOf(field.type, depth + 1);
      }
      return object;
    }
    return pick(scalars[named.name] ?? [null]);
  };
  /** A value as a GraphQL literal (enum values bare). */
  const literal = (type: GraphQLInputType, value: unknown): string => {
    if (value === null || value === undefined) return 'null';
    if (isNonNullType(type)) return literal(type.ofType, value);
    if (isListType(type)) return Array.isArray(value) ? `[${value.map((item) => literal(type.ofType, item)).join(', ')}]` : literal(type.ofType, value);
    const named = getNamedType(type);
    if (isEnumType(named) && typeof value === 'string') return value;
    if (isInputObjectType(named) && typeof value === 'object') {
      const fields = named.getFields();
      return `{ ${Object.entries(value as Record<string, unknown>).map(([key, item]) => `${key}: ${literal(fields[key].type, item)}`).join(', ')} }`;
    }
    return JSON.stringify(value);
  };
  const argumentsOf = (args: readonly GraphQLArgument[]): string => {
    const given = args.filter((arg) => isNonNullType(arg.type) || chance(0.5));
    if (given.length === 0) return '';
    return `(${given
      .map((arg) => {
        const value = valueOf(arg.type);
        if (chance(0.4)) {
          const name = `v${names++}`;
          const withDefault = !isNonNullType(arg.type) && chance(0.2);
          variableDefinitions.push(`$${name}: ${arg.type.toString()}${withDefault ? ` = ${literal(arg.type, valueOf(arg.type))}` : ''}`);
          // Sometimes left out of the variables: the default, or null, applies.
          if (!(withDefault || !isNonNullType(arg.type)) || chance(0.8)) variables[name] = value;
          return `${arg.name}: $${name}`;
        }
        return `${arg.name}: ${literal(arg.type, value)}`;
      })
      .join(', ')})`;
  };
  const directives = (): string => {
    if (!chance(0.15)) return '';
    const directive = pick(['skip', 'include']);
    if (chance(0.5)) return ` @${directive}(if: ${pick(['true', 'false'])})`;
    const name = `v${names++}`;
    variableDefinitions.push(`$${name}: Boolean!`);
    variables[name] = chance(0.5);
    return ` @${directive}(if: $${name})`;
  };
  const selectionOf = (type: GraphQLNamedType, depth: number): string => {
    if (isLeafType(type)) return '';
    const possible =
      isObjectType(type) || isInterfaceType(type)
        ? Object.values(type.getFields()).filter((field) => !skip.has(`${type.name}.${field.name}`) && (depth > 0 || !rootFields || rootFields.has(field.name)))
        : [];
    const parts: string[] = [];
    // Fields with arguments asked again at this level get an alias: the same response key with other
    // arguments is a document GraphQL refuses.
    const withArguments = new Set<string>();
    // Response keys already used here, so that a shadowing alias names a field not asked at this level.
    const keys = new Set<string>();
    const count = 1 + Math.floor(random() * maxFields);
    for (let index = 0; index < count; index += 1) {
      const roll = random();
      // On an interface or a union: sometimes a fragment on one of its object types (always possible on a union).
      if (isAbstractType(type) && depth < maxDepth && roll >= (possible.length === 0 ? 0.3 : 0.8)) {
        const member = pick(schema.getPossibleTypes(type));
        parts.push(`... on ${member.name}${directives()} ${selectionOf(member, depth + 1)}`);
        continue;
      }
      if (roll < 0.1 || possible.length === 0) {
        parts.push(`${chance(0.3) ? `t${names++}: ` : ''}__typename`);
        continue;
      }
      if (roll < 0.18 && isObjectType(type) && depth < maxDepth) {
        parts.push(`... on ${type.name}${directives()} ${selectionOf(type, depth + 1)}`);
        continue;
      }
      if (roll < 0.24 && isObjectType(type) && depth < maxDepth) {
        // Its place is taken first: fragments spread inside it are defined after it.
        const slot = fragments.push('') - 1;
        fragments[slot] = `fragment F${slot} on ${type.name} ${selectionOf(type, depth + 1)}`;
        const name = `F${slot}`;
        parts.push(`...${name}${directives()}`);
        continue;
      }
      const preferred = favoured ? possible.filter((field) => favoured.has(`${type.name}.${field.name}`)) : [];
      const field = preferred.length > 0 && chance(0.5) ? pick(preferred) : pick(possible);
      const inner = getNamedType(field.type);
      if (!isLeafType(inner) && depth >= maxDepth) continue;
      const again = field.args.length > 0 && withArguments.has(field.name);
      if (field.args.length > 0) withArguments.add(field.name);
      const shadowing = possible.map((other) => other.name).filter((name) => name !== field.name && !keys.has(name));
      const alias = shadowingAliases > 0 && shadowing.length > 0 && chance(shadowingAliases) ? `${pick(shadowing)}: ` : again || chance(0.25) ? `a${names++}: ` : '';
      keys.add(alias ? alias.slice(0, -2) : field.name);
      parts.push(`${alias}${field.name}${argumentsOf(field.args)}${directives()} ${selectionOf(inner, depth + 1)}`.trimEnd());
    }
    if (isUnionType(type) || parts.length === 0) parts.push('__typename');
    return `{ ${parts.join(' ')} }`;
  };
  const root = schema.getQueryType() as GraphQLObjectType;
  const selection = selectionOf(root, 0);
  const head = variableDefinitions.length > 0 ? `query Random(${variableDefinitions.join(', ')})` : 'query Random';
  return { query: [`${head} ${selection}`, ...fragments].join('\n'), variables };
}
