import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSettings } from '../../src/gateway/settings.ts';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';
import { titleOf } from '../helpers/stand-in-translation.ts';

const MiB = 1024 * 1024;
const HUGE = 64 * MiB;

/** Bytes the huge problems service managed to send for the last request before the gateway hung up. */
let sent = 0;
/** Whether the service has stopped writing that answer (the gateway hung up, or all of it went out). */
let stopped = false;
let declareLength = false;

/** A problems service whose answer is a valid GraphQL answer with a 64 MiB title, streamed with backpressure. */
function hugeProblems(request: IncomingMessage, response: ServerResponse): void {
  request.resume();
  request.on('end', async () => {
    const head = Buffer.from('{"data":{"problem":{"id":"p1001","title":"');
    const tail = Buffer.from('"}}}');
    const chunk = Buffer.alloc(64 * 1024, 'a');
    sent = 0;
    stopped = false;
    response.writeHead(200, {
      'content-type': 'application/json',
      ...(declareLength ? { 'content-length': String(head.length + HUGE + tail.length) } : {}),
    });
    let closed = false;
    response.on('close', () => (closed = true));
    const write = async (buffer: Buffer) => {
      sent += buffer.length;
      if (response.write(buffer)) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          response.off('drain', done).off('close', done);
          resolve();
        };
        response.on('drain', done).on('close', done);
      });
    };
    await write(head);
    for (let written = 0; written < HUGE && !closed; written += chunk.length) await write(chunk);
    if (!closed) response.end(tail);
    stopped = true;
  });
}

describe('hardening: upstream answers are bounded while they stream', () => {
  let stack: Stack;
  let huge: RunningServer;
  const query = '{ problem(id: "p1001") { id title } }';

  beforeAll(async () => {
    huge = await listen(hugeProblems);
    stack = await sharedStack('open');
  });
  afterAll(async () => {
    await stack?.close();
    await huge?.close();
  });

  it('defaults to 10 MiB for problems answers (PROBLEMS_MAX_RESPONSE_BYTES) and 16 MiB for translation ones', () => {
    expect(readSettings({})).toMatchObject({ problemsMaxResponseBytes: 10 * MiB, translationMaxResponseBytes: 16 * MiB });
    expect(readSettings({ PROBLEMS_MAX_RESPONSE_BYTES: '2048' }).problemsMaxResponseBytes).toBe(2048);
    expect(() => readSettings({ TRANSLATION_MAX_RESPONSE_BYTES: '0' })).toThrow(/TRANSLATION_MAX_RESPONSE_BYTES/);
  });

  for (const declared of [false, true]) {
    it(`refuses a 64 MiB answer with UPSTREAM_RESPONSE_TOO_LARGE, having read little of it (${declared ? 'with' : 'without'} Content-Length)`, async () => {
      const gateway = await stack.addGateway({
        settings: { problemsUrl: huge.url, problemsMaxResponseBytes: MiB, problemsCacheTtlSeconds: 0, problemsTimeoutMs: 5000 },
      });
      declareLength = declared;
      const result = await gateway.query(query);
      expect(result.data?.problem ?? null).toBeNull();
      expect(result.errors?.[0]).toMatchObject({
        message: `The problems service answered with more than ${MiB} bytes.`,
        extensions: { code: 'UPSTREAM_RESPONSE_TOO_LARGE', service: 'problems', limit: MiB },
      });
      // Reading stopped at the bound: what the service got out before the connection closed is the
      // bound plus what sat in socket buffers, nowhere near the 64 MiB it meant to send. (The code
      // above says no timeout ended it: that would be UPSTREAM_TIMEOUT.)
      await expect.poll(() => stopped).toBe(true);
      expect(sent).toBeLessThan(16 * MiB);
    });
  }

  it('still serves answers under the bound', async () => {
    const gateway = await stack.addGateway({ settings: { problemsMaxResponseBytes: 64 * 1024 } });
    const result = await gateway.query(query);
    expect(result.errors).toBeUndefined();
    expect(result.data.problem.id).toBe('p1001');
  });

  it('bounds translation answers too (TRANSLATION_MAX_RESPONSE_BYTES)', async () => {
    const gateway = await stack.addGateway({ settings: { translationMaxResponseBytes: 16, translationCacheTtlSeconds: 0 } });
    const result = await gateway.query('{ problem(id: "p1002") { title translation(to: "es") { title } } }');
    expect(result.data.problem.title).toBe(titleOf('p1002'));
    expect(result.data.problem.translation).toBeNull();
    expect(result.errors?.[0].extensions).toMatchObject({ code: 'UPSTREAM_RESPONSE_TOO_LARGE', service: 'translation', limit: 16 });
  });
});
