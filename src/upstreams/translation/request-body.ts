import type { IncomingMessage } from 'node:http';
import { shown } from './replies.ts';

export type Body = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

export function parseBody(raw: Buffer, contentType: string | undefined): Body {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const text = raw.toString('utf8').replace(/^\uFEFF/, '');
  if (type === 'application/json' || type.endsWith('+json') || (type === '' && text.trim().startsWith('{'))) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { ok: false, error: 'the body is not valid JSON' };
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: 'the JSON body must be an object' };
    return { ok: true, value: value as Record<string, unknown> };
  }
  if (type === 'application/x-www-form-urlencoded' || (type === '' && text.trim() === '')) {
    // As LibreTranslate reads forms: one value per field; a repeated q becomes a batch.
    const params = new URLSearchParams(text);
    const value: Record<string, unknown> = {};
    for (const key of new Set(params.keys())) {
      const all = params.getAll(key);
      value[key] = key === 'q' && all.length > 1 ? all : all[0];
    }
    return { ok: true, value };
  }
  return { ok: false, error: `unsupported content type ${shown(type)}: send application/json or application/x-www-form-urlencoded` };
}

/** Reads the body up to `limit` bytes; past it, keeps draining the socket but drops the bytes. */
export function readBody(req: IncomingMessage, limit: number): Promise<{ raw?: Buffer; tooLarge?: boolean; aborted?: boolean }> {
  return new Promise((resolve) => {
    if (Number(req.headers['content-length']) > limit) {
      req.resume();
      resolve({ tooLarge: true });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: { raw?: Buffer; tooLarge?: boolean; aborted?: boolean }) => {
      if (!done) resolve(result);
      done = true;
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        finish({ tooLarge: true });
      } else chunks.push(chunk);
    });
    req.on('end', () => finish({ raw: Buffer.concat(chunks) }));
    req.on('error', () => finish({ aborted: true }));
    req.on('close', () => finish({ aborted: true }));
  });
}
