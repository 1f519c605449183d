import { readFileSync } from 'node:fs';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { sdkOperationsNotValidating, staleSdkOperationsLine } from '../../src/sdk/stale-operations.ts';

const PUBLIC = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');

describe("the SDK's operations checked against the schema served", () => {
  it('all validate against the schema the package ships', () => {
    expect(sdkOperationsNotValidating(buildSchema(PUBLIC))).toEqual([]);
    expect(staleSdkOperationsLine(buildSchema(PUBLIC), 'abc')).toBeUndefined();
  });

  it('name each operation a service with other names refuses, with the first reason', () => {
    const renamed = buildSchema(PUBLIC.replace(/\n  problems\(/, '\n  tasks('));
    const stale = sdkOperationsNotValidating(renamed);
    expect(stale.map(({ name }) => name).sort()).toEqual(['ProblemsInLanguage', 'ProblemsInReadersLanguage', 'ProblemsPage']);
    expect(stale[0]!.reason).toMatch(/^Cannot query field "problems" on type "Query"\./);
    expect(staleSdkOperationsLine(renamed, '0123456789abcdef')).toMatch(/^SDK operations that do not validate against problems schema 0123456789ab .*ProblemsInLanguage \(Cannot query field "problems" on type "Query"\./);
  });
});
