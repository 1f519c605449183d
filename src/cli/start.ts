/**
 * `npm start`: runs the gateway. For each upstream whose URL is not set it first starts the local
 * stand-in (with a key generated for the run), then builds the mesh and listens on PORT.
 * Ctrl-C (SIGINT) or SIGTERM stops everything it started.
 */
import { createGateway } from '../gateway/create-gateway.ts';
import { SettingsError, readSettings, type GatewaySettings } from '../gateway/settings.ts';
import { listen } from '../shared/listen.ts';
import { startProblemsStandIn, startTranslationStandIn, type StandIn } from '../upstreams/stand-ins.ts';

const step = (line: string) => console.log(`[gateway] ${line}`);

/** A URL as it may be printed: user and password removed. */
function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString().replace(/\/$/, '');
}

/** The service at `url`, or, without one, a local stand-in started now. */
async function ensureUpstream(
  name: string,
  url: string | undefined,
  start: () => Promise<StandIn>,
  urlVariable: string,
): Promise<StandIn | undefined> {
  if (url) {
    step(`${name}: ${withoutCredentials(url)} (from ${urlVariable})`);
    return undefined;
  }
  const standIn = await start();
  step(`${name}: local stand-in at ${standIn.url} (set ${urlVariable} to use a real service)`);
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

  const problems = await ensureUpstream('problems', settings.problemsUrl, () => startProblemsStandIn({ apiKey: settings.problemsApiKey }), 'PROBLEMS_URL');
  if (problems) started.push(problems);
  const translation = await ensureUpstream(
    'translation',
    settings.translationUrl,
    () => startTranslationStandIn({ apiKey: settings.translationApiKey }),
    'TRANSLATION_URL',
  );
  if (translation) started.push(translation);
  // A stand-in's URL and key replace the unset ones; everything else is as read.
  const upstreams: Partial<GatewaySettings> = {
    ...(problems ? { problemsUrl: problems.url, problemsApiKey: problems.apiKey } : {}),
    ...(translation ? { translationUrl: translation.url, translationApiKey: translation.apiKey } : {}),
  };

  if (process.env.DEBUG) step('DEBUG is ignored by the gateway: Mesh debug output would print upstream keys');
  if (settings.gatewayApiKeys.length === 0) {
    console.warn('[gateway] warning: GATEWAY_API_KEYS is not set, so any client may call the gateway (fine for development only)');
  }
  step('building the schema from .meshrc.yaml…');
  const building = Date.now();
  const gateway = await createGateway({ settings: { ...settings, ...upstreams }, log: (line) => step(line) });
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
