import { buildSchema } from 'graphql';
import { sizeOf, type SchemaBounds } from '../../src/gateway/schema/schema-size.ts';
import { typeDefs } from '../../src/upstreams/problems/schema.ts';

const ENUMS = 40;
const INPUTS = 200;
const INPUT_FIELDS = 4;

/**
 * The stand-in's type definitions grown to `bounds` (as schema-size.ts counts them): object types
 * chained from `Query.generated`, each with scalar fields, an enum field, a link to the next and one
 * field taking an input type; input types; enums sharing the enum values out. `mark` names one extra
 * enum value, so that two calls with different marks give two schemas of the same size.
 */
export function boundSizeTypeDefs(bounds: SchemaBounds, mark = 'FIRST'): string {
  const base = sizeOf(buildSchema(typeDefs));
  const objects = bounds.maxTypes - base.types - ENUMS - INPUTS;
  // What Query.generated and the input types leave, less each object type's enum field, link, and
  // field with its argument: shared out as scalar fields.
  const scalars = bounds.maxFields - base.fields - 1 - INPUTS * INPUT_FIELDS - objects * 4;
  const valuesPerEnum = Math.floor((bounds.maxEnumValues - base.enumValues - 1) / ENUMS);
  const parts = [typeDefs, `extend type Query { generated: Generated0 }`];
  for (let index = 0; index < ENUMS; index += 1) {
    const values = Array.from({ length: valuesPerEnum }, (_, value) => `V${value}`);
    if (index === 0) values.push(mark);
    parts.push(`enum GeneratedEnum${index} { ${values.join(' ')} }`);
  }
  for (let index = 0; index < INPUTS; index += 1) {
    parts.push(`input GeneratedInput${index} { ${Array.from({ length: INPUT_FIELDS }, (_, field) => `f${field}: String`).join(' ')} }`);
  }
  for (let index = 0; index < objects; index += 1) {
    const count = Math.floor(scalars / objects) + (index < scalars % objects ? 1 : 0);
    const fields = Array.from({ length: count }, (_, field) => `s${field}: ${field % 2 === 0 ? 'String' : 'Int'}`);
    const next = index + 1 < objects ? `next: Generated${index + 1}` : 'next: String';
    parts.push(
      `type Generated${index} { ${fields.join(' ')} kind: GeneratedEnum${index % ENUMS} ${next} find(where: GeneratedInput${index % INPUTS}): String }`,
    );
  }
  return parts.join('\n');
}
