import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { describeOverBound, overBound, sizeOf } from '../../src/gateway/schema/schema-size.ts';

describe('the size of a schema', () => {
  const schema = buildSchema(/* GraphQL */ `
    type Query { a(x: Int, y: Int): String b: Kind }
    interface Named { name: String }
    type Thing implements Named { name: String }
    input Filter { kind: Kind limit: Int }
    enum Kind { ONE TWO THREE }
    scalar Date
  `);

  it('counts named types (not built-in scalars or introspection types), fields with their arguments, and enum values', () => {
    // Query, Named, Thing, Filter, Kind, Date; Query.a with 2 arguments, Query.b, Named.name, Thing.name, 2 input fields.
    expect(sizeOf(schema)).toEqual({ types: 6, fields: 8, enumValues: 3 });
  });

  it('names the first bound a size is over, with the count and the setting', () => {
    expect(overBound({ types: 6, fields: 8, enumValues: 3 }, { maxTypes: 6, maxFields: 8, maxEnumValues: 3 })).toBeUndefined();
    const over = overBound({ types: 6, fields: 9, enumValues: 4 }, { maxTypes: 6, maxFields: 8, maxEnumValues: 3 });
    expect(over).toEqual({ measure: 'fields', count: 9, bound: 8, variable: 'PROBLEMS_SCHEMA_MAX_FIELDS' });
    expect(describeOverBound(over!)).toBe('9 fields and arguments, over PROBLEMS_SCHEMA_MAX_FIELDS=8');
  });
});
