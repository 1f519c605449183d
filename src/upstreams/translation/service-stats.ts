import type { Body } from './request-body.ts';

export interface RecordedRequest {
  method: string;
  path: string;
  /** Parsed body with `api_key` redacted; bodies over 64 KiB are summarised, not kept. */
  body: unknown;
}

export interface TranslationServiceStats {
  /** Every request received, whatever its outcome. */
  requests: number;
  /** Requests per known route, e.g. `'POST /translate': 3`. */
  byRoute: Record<string, number>;
  /** Texts translated successfully (an array `q` counts each element); faulted answers do not count. */
  translatedTexts: number;
  /** POST /translate calls answered 500 "Cannot translate text" for an `untranslatable` input. */
  cannotTranslate: number;
  /** Requests hit by a fault mode (`setFaults`), latency alone included. They count in `requests` too. */
  faulted: number;
  /** The latest requests, oldest first, at most 50. */
  lastRequests: RecordedRequest[];
}

const MAX_RECORDED = 50;
const MAX_RECORDED_BODY_BYTES = 64 * 1024;

/** The service's counters and its latest requests (bodies with `api_key` redacted), kept in place so that references stay valid. */
export function createServiceStats(): { stats: TranslationServiceStats; reset(): void; record(method: string, path: string, raw: Buffer | undefined, body: Body | undefined): void } {
  const stats: TranslationServiceStats = { requests: 0, byRoute: {}, translatedTexts: 0, cannotTranslate: 0, faulted: 0, lastRequests: [] };
  return {
    stats,
    reset: () => {
      Object.assign(stats, { requests: 0, byRoute: {}, translatedTexts: 0, cannotTranslate: 0, faulted: 0 });
      stats.lastRequests.length = 0;
    },
    record: (method, path, raw, body) => {
      let recorded: unknown;
      if (raw && raw.length > MAX_RECORDED_BODY_BYTES) recorded = { omitted: `body of ${raw.length} bytes` };
      else if (body?.ok) recorded = 'api_key' in body.value ? { ...body.value, api_key: '[redacted]' } : body.value;
      stats.lastRequests.push({ method, path, body: recorded });
      if (stats.lastRequests.length > MAX_RECORDED) stats.lastRequests.splice(0, stats.lastRequests.length - MAX_RECORDED);
    },
  };
}
