export type LogLevel = 'info' | 'warn' | 'error';

/** Where the gateway's own lines go: start-up notes, and what Mesh has to warn about. */
export type GatewayLog = (line: string, level?: LogLevel) => void;
