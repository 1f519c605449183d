import { listen } from '../../shared/listen.ts';
import { createTranslationService } from './service.ts';

/**
 * Runs the translation stand-in on its own: `npm run upstream:translation`.
 *
 * PORT                 port to listen on (default 4002)
 * TRANSLATION_API_KEY  key callers must send as `Authorization: Bearer <key>` or `api_key`; unset = open
 * HOST                 interface to bind (default 127.0.0.1)
 */
const rawPort = process.env.PORT ?? '4002';
const port = Number(rawPort);
if (!/^\d+$/.test(rawPort) || port > 65535) {
  console.error(`PORT must be a port number (0-65535), got ${JSON.stringify(rawPort)}`);
  process.exit(1);
}

const apiKey = process.env.TRANSLATION_API_KEY || undefined;
const service = createTranslationService({ apiKey });
const server = await listen(service.listener, { port, host: process.env.HOST || '127.0.0.1' });
console.log(`Translation stand-in (glossary, not a neural model) listening on ${server.url}${apiKey ? ' (API key required)' : ''}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
