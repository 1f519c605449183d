import type { ServiceName } from '../errors.ts';

/** Source names as declared in .meshrc.yaml, mapped to the service names clients see in errors. */
const SERVICE_BY_SOURCE: Record<string, ServiceName> = {
  Problems: 'problems',
  Translation: 'translation',
};

/** Which upstream a Mesh fetch is for; Mesh passes the source name in the fetch's `info`. */
export function serviceOfFetch(info: unknown): ServiceName | undefined {
  const sourceName = (info as { sourceName?: string } | undefined)?.sourceName;
  return sourceName ? SERVICE_BY_SOURCE[sourceName] : undefined;
}
