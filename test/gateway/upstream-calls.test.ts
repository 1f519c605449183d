import { describe, expect, it } from 'vitest';
import type { ServiceName } from '../../src/gateway/errors.ts';
import { composeSteps, type ServiceStep, type UpstreamCall, type UpstreamStep } from '../../src/gateway/upstream/upstream-call.ts';
import { isReadOnly } from '../../src/gateway/upstream/upstream-calls.ts';

describe('isReadOnly', () => {
  it('takes the operation from the resolver info Mesh passes', () => {
    expect(isReadOnly({ operation: { operation: 'query' } }, 'anything')).toBe(true);
    expect(isReadOnly({ operation: { operation: 'mutation' } }, JSON.stringify({ query: '{ a }' }))).toBe(false);
  });

  it('without info, tells mutations and subscriptions from queries by the body', () => {
    expect(isReadOnly(undefined, JSON.stringify({ query: 'mutation { a }' }))).toBe(false);
    expect(isReadOnly(undefined, JSON.stringify({ query: '  subscription S { a }' }))).toBe(false);
    expect(isReadOnly(undefined, JSON.stringify({ query: 'query($id: ID!) { a(id: $id) }' }))).toBe(true);
    expect(isReadOnly(undefined, JSON.stringify({ query: '{ mutationCount }' }))).toBe(true);
    expect(isReadOnly(undefined, 'not json')).toBe(false);
    expect(isReadOnly(undefined, undefined)).toBe(false);
  });
});

describe('composeSteps', () => {
  it('runs the steps in list order around the send, each seeing what the one before passed on', async () => {
    const seen: string[] = [];
    const step =
      (name: string): UpstreamStep =>
      async (call, next) => {
        seen.push(`${name}>`);
        const response = await next({ ...call, url: `${call.url}/${name}` });
        seen.push(`<${name}`);
        return response;
      };
    const send = composeSteps([step('a'), step('b')]);
    const network = (async (url: string) => new Response(url)) as UpstreamCall['network'];
    const call: UpstreamCall = { service: 'problems', url: 'x', init: {}, context: undefined, info: undefined, readOnly: true, network };
    expect(await (await send(call)).text()).toBe('x/a/b');
    expect(seen).toEqual(['a>', 'b>', '<b', '<a']);
  });

  it("composes each service's chain once: a step is asked per service when the list is composed, never per call, and one that returns `next` is not in that chain", async () => {
    const asked: ServiceName[] = [];
    const seen: string[] = [];
    const problemsOnly: ServiceStep = {
      forService(service, next) {
        asked.push(service);
        if (service !== 'problems') return next;
        return (call) => {
          seen.push(`problems step for ${call.service}`);
          return next({ ...call, url: `${call.url}/p` });
        };
      },
    };
    const send = composeSteps([problemsOnly]);
    expect(asked).toEqual(['problems', 'translation']);
    const network = (async (url: string) => new Response(url)) as UpstreamCall['network'];
    const call = (service: ServiceName): UpstreamCall => ({ service, url: 'x', init: {}, context: undefined, info: undefined, readOnly: true, network });
    expect(await (await send(call('problems'))).text()).toBe('x/p');
    expect(await (await send(call('translation'))).text()).toBe('x');
    expect(await (await send(call('problems'))).text()).toBe('x/p');
    expect(asked).toEqual(['problems', 'translation']);
    expect(seen).toEqual(['problems step for problems', 'problems step for problems']);
  });
});
