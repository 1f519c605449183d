/**
 * The gateway as a library: build it with `createGateway(options)` and mount `gateway.listener`
 * (node:http, Express) or `gateway.fetch` (fetch-style servers), or call it from server code through
 * the typed SDK. README "Embedding" shows each.
 */
export { createGateway, type Gateway, type GatewayOptions, type GatewayYoga } from './gateway/create-gateway.ts';
export { mountAt, type MountedListener } from './gateway/pipeline/mount-at.ts';
export type { GatewayLog, LogLevel } from './gateway/gateway-log.ts';
export type { RequestLog, RequestLogEntry } from './gateway/observability/request-log.ts';
export type { GuardList, HeadGuard, ParamsGuard, BatchGuard, OperationGuard } from './gateway/request/guards.ts';
export type { EarlyAnswer } from './gateway/request/early-answer.ts';
export type { GatewayRequest } from './gateway/request/gateway-request.ts';
export { readSettings, settingsFromOptions, SettingsError, type GatewaySettings } from './gateway/settings.ts';
export { ErrorCode, type ServiceName } from './gateway/errors.ts';
export type { TranslationCache, TranslationKey } from './gateway/translation/translation-cache.ts';
export type { RateLimitStore } from './gateway/guards/rate-limit-store.ts';
export type { PrewarmClock } from './gateway/translation/prewarm/prewarm-clock.ts';
