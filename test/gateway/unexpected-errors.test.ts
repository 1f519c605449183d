import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../src/gateway/observability/index.ts';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';

const SECRET = 'connection string postgres://admin:hunter2@db';
const UNEXPECTED = { errors: [{ message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] };
const BY_ID = /* GraphQL */ `query ById($id: ID!) { problem(id: $id) { id title } }`;

/**
 * One masking step for every answer: an error the gateway did not write for clients (a guard or
 * resolver that threw) is "Unexpected error." whichever adapter answered, in every mode, and the
 * increments of a deferred answer are masked like whole answers.
 */
describe('unexpected errors, masked once for every way of answering', () => {
  let stack: Stack;
  let added: Awaited<ReturnType<Stack['addGateway']>>;
  const lanes: (string | undefined)[] = [];
  beforeAll(async () => {
    stack = await sharedStack('open');
    added = await stack.addGateway({
      requestLog: (entry: RequestLogEntry) => lanes.push(entry.lane),
      guards: {
        head: [
          {
            name: 'throws on the head',
            check: (request) => {
              if (request.head.headers.get('x-throw') === 'head') throw new Error(SECRET);
            },
          },
        ],
        operation: [
          {
            name: 'throws on p1003',
            check: (_request, estimate) => {
              if (estimate.fieldArguments.some(({ args }) => args.id === 'p1003')) throw new Error(SECRET);
              return undefined;
            },
          },
        ],
      },
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const init = (variables: Record<string, unknown>, headers: Record<string, string> = {}): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: BY_ID, variables }),
  });
  const answer = async (response: Response) => ({ status: response.status, body: JSON.parse(await response.text()) as unknown });

  it('a head guard that throws: 500 with nothing of the cause, on both adapters, and the process goes on', async () => {
    const viaListener = await answer(await fetch(added.gatewayUrl, init({ id: 'p1001' }, { 'x-throw': 'head' })));
    const viaYoga = await answer(await added.gateway.fetch(new Request(added.gatewayUrl, init({ id: 'p1001' }, { 'x-throw': 'head' }))));
    expect(viaListener).toEqual({ status: 500, body: UNEXPECTED });
    expect(viaYoga).toEqual({ status: 500, body: UNEXPECTED });
    expect((await answer(await fetch(added.gatewayUrl, init({ id: 'p1001' })))).status).toBe(200);
  });

  it('an operation guard that throws: the same masked 500 from yoga and from the direct lane', async () => {
    // Vetted by yoga first, so the next request with this text is the node:http adapter's own.
    expect((await answer(await fetch(added.gatewayUrl, init({ id: 'p1002' })))).status).toBe(200);
    lanes.length = 0;
    const viaListener = await answer(await fetch(added.gatewayUrl, init({ id: 'p1003' })));
    // Its log line is written once the answer is out: waited for, then read.
    await expect.poll(() => lanes.length).toBe(1);
    expect(lanes).toEqual(['direct']);
    const viaYoga = await answer(await added.gateway.fetch(new Request(added.gatewayUrl, init({ id: 'p1003' }))));
    expect(viaListener).toEqual({ status: 500, body: UNEXPECTED });
    expect(viaYoga).toEqual(viaListener);
  });
});

describe('the increments of a deferred answer go through the same masking', () => {
  let stack: Stack;
  let broken: RunningServer;
  let production: Awaited<ReturnType<Stack['addGateway']>>;
  beforeAll(async () => {
    // A problems service whose problem has no title, against its schema.
    broken = await listen((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ data: { problem: { id: 'p1001', title: null } } }));
      });
    });
    stack = await sharedStack('open');
    production = await stack.addGateway({ settings: { problemsUrl: broken.url, production: true } });
  });
  afterAll(async () => {
    await stack?.close();
    await broken?.close();
  });

  it('in production, an increment’s error without a code of the gateway’s is "Unexpected error.", as in a whole answer', async () => {
    const ask = (query: string) =>
      fetch(production.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'multipart/mixed' }, body: JSON.stringify({ query }) }).then(
        (response) => response.text(),
      );
    const whole = await ask(/* GraphQL */ `{ problem(id: "p1001") { id title } }`);
    const deferred = await ask(/* GraphQL */ `{ problem(id: "p1001") { id ... @defer { title } } }`);
    expect(whole).toContain('"message":"Unexpected error."');
    expect(whole).not.toContain('Cannot return null');
    expect(deferred).toContain('"message":"Unexpected error."');
    expect(deferred).not.toContain('Cannot return null');
  });
});
