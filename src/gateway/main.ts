/**
 * `npm start`: runs the gateway. For each upstream whose URL is not set it first starts the local
 * stand-in (with a key generated for the run), then builds the mesh and listens on PORT.
 * Ctrl-C (SIGINT) or SIGTERM stops everything it started.
 */
import { listen } from '../shared/listen.ts';
import { startProblemsStandIn, startTranslationStandIn, type StandIn } from '../upstreams/stand-ins.ts';
import { createGateway } from './create-gateway.ts';
import { SettingsError, readSettings, type GatewaySettings } from './settings.ts';

const step = (line: string) => console.log(`[gateway] ${line}`);

/** A URL as it may be printed: user and password removed. */
function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString().replace(/\/$/, '');
}

/** Points the gateway at a stand-in through the same variables a real deployment sets. */
async function ensureUpstream(
  name: string,
  url: string | undefined,
  start: () => Promise<StandIn>,
  env: { url: string; key: string },
): Promise<StandIn | undefined> {
  if (url) {
    step(`${name}: ${withoutCredentials(url)} (from ${env.url})`);
    return undefined;
  }
  const standIn = await start();
  process.env[env.url] = standIn.url;
  process.env[env.key] = standIn.apiKey;
  step(`${name}: local stand-in at ${standIn.url} (set ${env.url} to use a real service)`);
  return standIn;
}

async function main(settings: GatewaySettings): Promise<void> {
  const started: { close(): Promise<void> }[] = [];
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    step(`${signal}: stopping…`);
    // Last started, first stopped: the gateway before the upstreams it calls.
    for (const part of started.reverse()) await part.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  const problems = await ensureUpstream('problems', settings.problemsUrl, () => startProblemsStandIn({ apiKey: settings.problemsApiKey }), {
    url: 'PROBLEMS_URL',
    key: 'PROBLEMS_API_KEY',
  });
  if (problems) started.push(problems);
  const translation = await ensureUpstream(
    'translation',
    settings.translationUrl,
    () => startTranslationStandIn({ apiKey: settings.translationApiKey }),
    { url: 'TRANSLATION_URL', key: 'TRANSLATION_API_KEY' },
  );
  if (translation) started.push(translation);

  if (settings.gatewayApiKeys.length === 0) {
    console.warn('[gateway] warning: GATEWAY_API_KEYS is not set, so any client may call the gateway (fine for development only)');
  }
  step('building the schema from .meshrc.yaml…');
  const building = Date.now();
  const gateway = await createGateway({ log: (line) => step(line) });
  started.push(gateway);
  const types = Object.keys(gateway.schema.getTypeMap()).filter((name) => !name.startsWith('__')).length;
  const links = gateway.linksLeftOut.length === 0 ? 'all links in place' : `${gateway.linksLeftOut.length} link(s) left out`;
  step(`schema ready in ${((Date.now() - building) / 1000).toFixed(1)} s: ${types} types, ${links}`);
  const server = await listen(gateway.yoga, { port: settings.port, host: '0.0.0.0' });
  started.push(server);
  step(`listening: http://localhost:${server.port}/graphql (GraphiQL in a browser, GraphQL over HTTP for clients)`);
}

let settings: GatewaySettings;
try {
  settings = readSettings();
} catch (error) {
  if (!(error instanceof SettingsError)) throw error;
  console.error(`[gateway] cannot start: ${error.message}`);
  process.exit(1);
}
main(settings).catch((error: Error) => {
  console.error(`[gateway] failed to start: ${error.message}`);
  process.exit(1);
});
