import {
  buildSchema,
  execute,
  getNamedType,
  getNullableType,
  GraphQLError,
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { externalValue } from '../../src/gateway/execution/forward/linked-answer.ts';
import { describe, expect, it } from 'vitest';
import { compileAnswerShaper } from '../../src/gateway/execution/forward/answer-shaper.ts';

/** A small seeded generator (mulberry32): the same cases on every run. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  return { next, int, pick: <T>(items: readonly T[]): T => items[int(items.length)], chance: (p: number) => next() < p };
}
type Random = ReturnType<typeof random>;

const LEAVES = ['Int', 'Float', 'String', 'Boolean', 'ID', 'Kind'];
const OBJECTS = ['T0', 'T1', 'T2'];
const ABSTRACT = ['Node', 'Either'];

function typeText(r: Random, allowComposite: boolean): string {
  let type = allowComposite && r.chance(0.45) ? r.pick([...OBJECTS, ...ABSTRACT]) : r.pick(LEAVES);
  if (r.chance(0.35)) type = `${type}!`;
  if (r.chance(0.3)) type = `[${type}]`;
  if (r.chance(0.1)) type = `[${type}]`;
  if (r.chance(0.3) && !type.endsWith('!')) type = `${type}!`;
  return type;
}

/** A random schema: three object types implementing an interface, a union, an enum, every built-in scalar. */
function randomSchema(r: Random): GraphQLSchema {
  const fields = (composite: boolean) =>
    Array.from({ length: 3 + r.int(4) }, (_, index) => `f${index}(arg: Int): ${typeText(r, composite)}`).join('\n');
  return buildSchema(/* GraphQL */ `
    enum Kind { A B C }
    interface Node { id: ID!, name: String }
    union Either = T1 | T2
    type T0 implements Node { id: ID!, name: String, ${fields(true)} }
    type T1 implements Node { id: ID!, name: String, ${fields(true)} }
    type T2 implements Node { id: ID!, name: String, ${fields(false)} }
    type Query { ${fields(true)} }
  `);
}

/** A random selection set on `type`, as text, adding named fragments to `fragments`. */
function selectionText(r: Random, schema: GraphQLSchema, type: GraphQLObjectType | ReturnType<typeof getNamedType>, depth: number, fragments: string[]): string {
  const parts: string[] = [];
  const conditioned = (text: string) => (r.chance(0.12) ? `${text.replace(/^(\S+)/, `$1 ${r.pick(['@include(if: $flag)', '@skip(if: $flag)', '@skip(if: false)', '@include(if: false)'])}`)}` : text);
  if (isAbstractType(type)) {
    if (r.chance(0.7)) parts.push('__typename');
    if (type.name === 'Node' && r.chance(0.6)) parts.push(conditioned('id'));
    for (const possible of schema.getPossibleTypes(type)) {
      if (r.chance(0.6)) parts.push(`... on ${possible.name} { ${selectionText(r, schema, possible, depth, fragments)} }`);
    }
    if (parts.length === 0) parts.push('__typename');
    return parts.join(' ');
  }
  const object = type as GraphQLObjectType;
  const all = Object.values(object.getFields());
  const count = 1 + r.int(4);
  for (let index = 0; index < count; index += 1) {
    const field = r.pick(all);
    const named = getNamedType(field.type);
    if (!isLeafType(named) && depth === 0) continue;
    const alias = r.chance(0.2) ? `a${r.int(3)}_${field.name}: ` : '';
    const args = field.args.length && r.chance(0.3) ? `(arg: ${r.int(5)})` : '';
    const sub = isLeafType(named) ? '' : ` { ${selectionText(r, schema, named, depth - 1, fragments)} }`;
    const text = `${alias}${field.name}${args}${sub}`;
    if (r.chance(0.15)) parts.push(`... on ${object.name} { ${conditioned(text)} }`);
    else if (r.chance(0.1)) {
      const name = `F${fragments.length}`;
      fragments.push(`fragment ${name} on ${object.name} { ${text} }`);
      parts.push(conditioned(`...${name}`));
    } else parts.push(conditioned(text));
    // The same field again, merged by execution.
    if (r.chance(0.1) && !args) parts.push(text);
  }
  if (r.chance(0.2)) parts.push(r.chance(0.5) ? '__typename' : 'kind: __typename');
  if (parts.length === 0) parts.push('__typename');
  return parts.join(' ');
}

const WRONG = [null, 'text', 42, 1.5, 2 ** 31, true, { nested: 1 }, [1, 2], 'D', '7'];

/** Data for a selection set, well formed or with random faults (wrong types, nulls, unknown enum values, missing and extra keys, keys out of order). */
function dataFor(r: Random, schema: GraphQLSchema, selectionSet: SelectionSetNode, type: GraphQLObjectType, fragments: Record<string, FragmentDefinitionNode>, fault: number): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  const fill = (selections: SelectionSetNode) => {
    for (const selection of selections.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        if (selection.name.value === '__typename') {
          data[key] = type.name;
          continue;
        }
        const field = type.getFields()[selection.name.value];
        if (r.chance(fault / 3)) continue;
        const value = valueFor(r, schema, field.type, selection.selectionSet, fragments, fault);
        data[key] = key in data && typeof data[key] === 'object' && data[key] !== null && typeof value === 'object' && value !== null ? Object.assign(data[key] as object, value) : value;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (!selection.typeCondition || selection.typeCondition.name.value === type.name) fill(selection.selectionSet);
      } else {
        const fragment = fragments[selection.name.value];
        if (fragment.typeCondition.name.value === type.name) fill(fragment.selectionSet);
      }
    }
  };
  fill(selectionSet);
  if (r.chance(fault / 2)) data[r.pick(['extra', '__typename', 'id'])] = 'x';
  if (r.chance(fault)) {
    const entries = Object.entries(data).reverse();
    return Object.fromEntries(entries);
  }
  return data;
}

function valueFor(r: Random, schema: GraphQLSchema, type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined, fragments: Record<string, FragmentDefinitionNode>, fault: number): unknown {
  if (r.chance(fault / 2)) return r.pick(WRONG);
  if (!isNonNullType(type) && r.chance(0.15)) return null;
  const nullable = getNullableType(type);
  if (isListType(nullable)) return Array.from({ length: r.int(3) }, () => valueFor(r, schema, nullable.ofType, selectionSet, fragments, fault));
  if (isLeafType(nullable)) {
    switch (nullable.name) {
      case 'Int':
        return r.int(100) - 50;
      case 'Float':
        return r.next() * 10;
      case 'Boolean':
        return r.chance(0.5);
      case 'Kind':
        return r.pick(['A', 'B', 'C']);
      default:
        return `s${r.int(1000)}`;
    }
  }
  const runtime = isObjectType(nullable) ? nullable : r.pick(schema.getPossibleTypes(nullable as Parameters<GraphQLSchema['getPossibleTypes']>[0]));
  const object = dataFor(r, schema, selectionSet!, runtime, fragments, fault);
  // An interface or union value carries its type, as the forwarded query asks for it.
  if (!isObjectType(nullable) && !r.chance(fault / 4)) return { ...object, __typename: runtime.name };
  return object;
}

/**
 * graphql-js's own execution over the source's data, read as delegation reads it (linked-answer.ts):
 * a leaf parsed as input of its type (null when it cannot be), lists read item by item.
 */
const delegationReading: GraphQLFieldResolver<Record<string, unknown>, unknown> = (source, _args, _context, info) => {
  const value = externalValue(source[info.path.key], info.returnType);
  if (value == null && isNonNullType(info.returnType)) throw new GraphQLError(`Cannot return null for non-nullable field ${info.parentType.name}.${info.fieldName}.`);
  if (value != null && isListType(getNullableType(info.returnType)) && !Array.isArray(value)) {
    throw new GraphQLError(`Expected Iterable, but did not find one for field "${info.parentType.name}.${info.fieldName}".`);
  }
  return value;
};

describe('the compiled answer shaper', () => {
  it('completes random data for random operations of random schemas as graphql-js execution does', () => {
    const r = random(36);
    const tally = { compared: 0, unchanged: 0, written: 0, withErrors: 0, nullData: 0, leftToExecution: 0 };
    for (let schemaIndex = 0; schemaIndex < 40; schemaIndex += 1) {
      const schema = randomSchema(r);
      for (let operationIndex = 0; operationIndex < 8; operationIndex += 1) {
        const fragmentTexts: string[] = [];
        const selection = selectionText(r, schema, schema.getQueryType()!, 3, fragmentTexts);
        const body = `{ ${selection} } ${fragmentTexts.join(' ')}`;
        const text = `query Q${body.includes('$flag') ? '($flag: Boolean!)' : ''} ${body}`;
        let document: DocumentNode;
        try {
          document = parse(text);
        } catch {
          continue;
        }
        // Random selections may break validation (fields of one key that conflict, an unused variable): left out.
        if (validate(schema, document).length > 0) continue;
        const fragments: Record<string, FragmentDefinitionNode> = {};
        for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
        const operation = document.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION)!;
        const shaper = compileAnswerShaper({ schema, operation, fragments, nullErrorsWithoutLocations: false });
        expect(shaper, text).toBeDefined();
        for (let dataIndex = 0; dataIndex < 6; dataIndex += 1) {
          const fault = dataIndex === 0 ? 0 : r.pick([0.02, 0.08, 0.2]);
          const data = dataFor(r, schema, operation.selectionSet, schema.getQueryType()!, fragments, fault);
          const variables = { flag: r.chance(0.5) };
          const expected = JSON.stringify(execute({ schema, document, rootValue: structuredClone(data), variableValues: variables, fieldResolver: delegationReading }));
          const shaped = shaper!.shape(data, variables, {});
          if (shaped === undefined) {
            tally.leftToExecution += 1;
            continue;
          }
          expect(shaped).not.toBeInstanceOf(Promise);
          const { data: shapedData, errors, unchanged, text: written } = shaped as Exclude<typeof shaped, Promise<unknown>>;
          expect(JSON.stringify(errors ? { errors, data: shapedData } : { data: shapedData }), `${text}\n${JSON.stringify(data)}`).toBe(expected);
          // The text the shaper wrote straight from the source's data is the answer's, byte for byte.
          if (written !== undefined) {
            expect(written, `${text}\n${JSON.stringify(data)}`).toBe(expected);
            tally.written += 1;
          }
          tally.compared += 1;
          if (unchanged) tally.unchanged += 1;
          if (errors) tally.withErrors += 1;
          if (shapedData === null) tally.nullData += 1;
        }
      }
    }
    // The cases cover each outcome: answers served as they came, written as text, errors, data nulled whole, and few left to execution.
    expect(tally.compared).toBeGreaterThan(500);
    expect(tally.unchanged).toBeGreaterThan(20);
    expect(tally.written).toBeGreaterThan(20);
    expect(tally.withErrors).toBeGreaterThan(100);
    expect(tally.nullData).toBeGreaterThan(5);
    expect(tally.leftToExecution).toBeLessThan(tally.compared / 10);
  });
});
