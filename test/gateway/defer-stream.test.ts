import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';
import { translatedTitleOf } from '../helpers/stand-in-translation.ts';

interface Payload {
  data?: any;
  errors?: unknown[];
  incremental?: { data?: any; items?: unknown[]; path: (string | number)[]; label?: string; errors?: unknown[] }[];
  hasNext?: boolean;
}

/** The payloads of an SSE answer (yoga's `text/event-stream`), in order. */
async function ssePayloads(response: Response): Promise<Payload[]> {
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line.length > 6)
    .map((line) => JSON.parse(line.slice(6)) as Payload);
}

/** `@defer` lets a client render problems first and their translations when they arrive; `@stream` lists. */
describe('@defer and @stream', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await sharedStack('open');
  });
  afterAll(async () => {
    await stack?.close();
  });

  const post = (query: string, accept: string) =>
    fetch(stack.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify({ query }) });

  const DEFERRED = /* GraphQL */ `{ problems(first: 3) { nodes { id title ... @defer(label: "translation") { translation(to: "es") { title } } } } }`;

  it('sends the problems first and each translation as an increment (SSE)', async () => {
    const response = await post(DEFERRED, 'text/event-stream');
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const [first, ...rest] = await ssePayloads(response);
    expect(first.hasNext).toBe(true);
    expect(first.errors).toBeUndefined();
    expect(first.data.problems.nodes.map((node: any) => Object.keys(node))).toEqual([['id', 'title'], ['id', 'title'], ['id', 'title']]);
    const increments = rest.flatMap((payload) => payload.incremental ?? []);
    expect(increments.map((increment) => increment.path)).toEqual(
      expect.arrayContaining([
        ['problems', 'nodes', 0],
        ['problems', 'nodes', 1],
        ['problems', 'nodes', 2],
      ]),
    );
    for (const increment of increments) {
      expect(increment.errors).toBeUndefined();
      expect(increment.label).toBe('translation');
      const node = first.data.problems.nodes[increment.path[2] as number];
      expect(increment.data.translation.title).toBe(translatedTitleOf(node.id, 'es'));
    }
    expect(rest.at(-1)?.hasNext).toBe(false);
  });

  it('answers multipart/mixed too', async () => {
    const response = await post(DEFERRED, 'multipart/mixed');
    expect(response.headers.get('content-type')).toMatch(/^multipart\/mixed/);
    const body = await response.text();
    expect(body).toContain('"hasNext":true');
    expect(body).toContain('"incremental"');
    expect(body).toContain('"hasNext":false');
  });

  it('streams a list item by item after the first', async () => {
    const [first, ...rest] = await ssePayloads(await post(/* GraphQL */ `{ problems(first: 3) { nodes @stream(initialCount: 1) { id } } }`, 'text/event-stream'));
    expect(first.data.problems.nodes).toHaveLength(1);
    const items = rest.flatMap((payload) => payload.incremental ?? []).flatMap((increment) => increment.items ?? []);
    expect(items).toHaveLength(2);
  });

  it('a client that cannot take increments gets the whole answer at once', async () => {
    const result = await stack.query(DEFERRED.replace(' @defer(label: "translation")', ''));
    expect(result.errors).toBeUndefined();
    for (const node of result.data.problems.nodes) expect(node.translation.title).toBe(translatedTitleOf(node.id, 'es'));
  });
});
