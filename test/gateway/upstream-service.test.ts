import { afterEach, describe, expect, it } from 'vitest';
import { isWriteOperationBody, serviceOfFetch } from '../../src/gateway/plugins/upstream-service.ts';

describe('serviceOfFetch', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('names the service from the source name Mesh passes, or else from the configured base URLs', () => {
    process.env.PROBLEMS_URL = 'http://svc.local/problems';
    process.env.TRANSLATION_URL = 'http://svc.local';
    expect(serviceOfFetch({ sourceName: 'Problems' }, 'http://anything/graphql')).toBe('problems');
    expect(serviceOfFetch({}, 'http://svc.local/translate')).toBe('translation');
    // The longer base wins when one service sits under the other's path.
    expect(serviceOfFetch({}, 'http://svc.local/problems/graphql')).toBe('problems');
    expect(serviceOfFetch({}, 'http://svc.local.evil/translate')).toBeUndefined();
  });
});

describe('isWriteOperationBody', () => {
  it('tells mutations and subscriptions from queries', () => {
    expect(isWriteOperationBody(JSON.stringify({ query: 'mutation { a }' }))).toBe(true);
    expect(isWriteOperationBody(JSON.stringify({ query: '  subscription S { a }' }))).toBe(true);
    expect(isWriteOperationBody(JSON.stringify({ query: 'query($id: ID!) { a(id: $id) }' }))).toBe(false);
    expect(isWriteOperationBody(JSON.stringify({ query: '{ mutationCount }' }))).toBe(false);
    expect(isWriteOperationBody('not json')).toBe(false);
    expect(isWriteOperationBody(undefined)).toBe(false);
  });
});
