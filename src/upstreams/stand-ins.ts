import { randomBytes } from 'node:crypto';
import { listen, type RunningServer } from '../shared/listen.ts';
import { createProblemsService } from './problems/service.ts';
import { createTranslationService } from './translation/service.ts';

export interface StandIn {
  url: string;
  /** The key the stand-in requires; generated for the run unless one was given. */
  apiKey: string;
  close(): Promise<void>;
}

export interface StandInOptions {
  /** Key to require; a random one is made when omitted, so the auth path is always exercised. */
  apiKey?: string;
  /** @default 0 (a free port) */
  port?: number;
}

function makeKey(given: string | undefined): string {
  return given ?? `local-${randomBytes(18).toString('base64url')}`;
}

function asStandIn(server: RunningServer, apiKey: string): StandIn {
  return { url: server.url, apiKey, close: () => server.close() };
}

/** Starts the local problems service (graphql-yoga over the bundled dataset). */
export async function startProblemsStandIn({ apiKey, port = 0 }: StandInOptions = {}): Promise<StandIn> {
  const key = makeKey(apiKey);
  const server = await listen(createProblemsService({ apiKey: key }).listener, { port });
  return asStandIn(server, key);
}

/** Starts the local translation service (LibreTranslate-compatible, glossary-based). */
export async function startTranslationStandIn({ apiKey, port = 0 }: StandInOptions = {}): Promise<StandIn> {
  const key = makeKey(apiKey);
  const server = await listen(createTranslationService({ apiKey: key }).listener, { port });
  return asStandIn(server, key);
}
