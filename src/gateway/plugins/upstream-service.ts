import type { ServiceName } from '../errors.ts';
import { VARIABLE_OF_SETTING } from '../settings-from-options.ts';

/** Source names as declared in .meshrc.yaml, mapped to the service names clients see in errors. */
const SERVICE_BY_SOURCE: Record<string, ServiceName> = {
  Problems: 'problems',
  Translation: 'translation',
};

/** The variable holding each service's base URL (read per call, like Mesh's `{env.X}`). */
const URL_VARIABLE: Record<ServiceName, string> = {
  problems: VARIABLE_OF_SETTING.problemsUrl,
  translation: VARIABLE_OF_SETTING.translationUrl,
};

/**
 * Which upstream a Mesh fetch is for. The GraphQL handler names its source in the fetch's `info`;
 * the OpenAPI handler does not (its `sourceName` is empty), so fall back to the configured base URLs,
 * longest first in case one service sits under the other's path.
 */
export function serviceOfFetch(info: unknown, url: string): ServiceName | undefined {
  const sourceName = (info as { sourceName?: string } | undefined)?.sourceName;
  if (sourceName && SERVICE_BY_SOURCE[sourceName]) return SERVICE_BY_SOURCE[sourceName];
  const candidates = (Object.entries(URL_VARIABLE) as [ServiceName, string][])
    .map(([service, variable]) => [service, process.env[variable]?.replace(/\/+$/, '')] as const)
    .filter((entry): entry is readonly [ServiceName, string] => Boolean(entry[1]))
    .sort((a, b) => b[1].length - a[1].length);
  return candidates.find(([, base]) => url === base || url.startsWith(`${base}/`))?.[0];
}

/**
 * Whether a GraphQL request body sent upstream is a mutation or subscription (never safe to repeat or
 * to reuse). Mesh sends one operation per request, so its leading keyword tells. The retry and cache
 * hooks both ask about the same fetch in turn: the last answer is kept so the body is parsed once.
 */
let lastBody: string | undefined;
let lastAnswer = false;
export function isWriteOperationBody(body: unknown): boolean {
  if (typeof body !== 'string') return false;
  if (body === lastBody) return lastAnswer;
  let answer = false;
  try {
    const query = (JSON.parse(body) as { query?: unknown }).query;
    answer = typeof query === 'string' && /^\s*(mutation|subscription)\b/.test(query);
  } catch {
    answer = false;
  }
  lastBody = body;
  lastAnswer = answer;
  return answer;
}
