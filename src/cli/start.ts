/**
 * `npm start` (from source, its types stripped by Node) and `node dist/src/cli/start.js` (compiled,
 * for production): runs the gateway. For each upstream whose URL is not set it first starts the local
 * stand-in (with a key generated for the run), unless in production, then builds the mesh and listens
 * on PORT.
 *
 * SIGTERM or SIGINT stops it gracefully: no new connections, requests in flight finish (at most
 * SHUTDOWN_TIMEOUT_MS), then the gateway and the stand-ins close and the process exits: 0 when every
 * request was answered, 1 when some had to be cut off. SIGHUP is ignored, with one line: a closing
 * terminal never ends it.
 */
import nodeModule from 'node:module';
import type { RequestListener } from 'node:http';
import { SettingsError, readSettings, settingsVariables, unknownVariableLine, unknownVariables, type GatewaySettings } from '../gateway/settings.ts';
import { createEntryLog } from './entry-log.ts';
import { checkPortFree, listen } from '../shared/listen.ts';
import { RELEASE_AFTER_MS, releaseStartUpMemory } from './release-start-up-memory.ts';
import { seconds, startUpLine } from './start-up-line.ts';
import { gracefulStop, onSignals, type Started } from './shutdown.ts';
import { standInsAllowed, startStandIns, upstreamSettings, upstreamsWithoutUrl } from './upstreams.ts';

// Node 22.1 and later keep the code compiled for each module on disk (in the system's temporary
// folder, checked against each file's contents), so the next start compiles only what changed; the
// gateway's own code and Mesh load after this line. Node 20 has no such cache: then nothing happens.
// The entry's to decide, not the library's: an app that embeds the gateway owns its process.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

/** Variables the entry reads itself, beside the settings' own (settingsVariables). */
const ENTRY_VARIABLES = ['DEBUG'];

async function main(settings: GatewaySettings): Promise<void> {
  const allowStandIns = standInsAllowed(settings);
  const replaced = upstreamsWithoutUrl(settings);
  // Asked for by name: every line says so, so fake data is never mistaken for the real services.
  const standInsServe = Boolean(settings.standIns) && replaced.length > 0;
  const step = createEntryLog({
    json: settings.production,
    prefix: standInsServe ? '[gateway] [stand-ins]' : '[gateway]',
    fields: standInsServe ? { standIns: true } : {},
  });
  // First, so an operator who misspelt a limit reads it before believing it set.
  for (const unknown of unknownVariables(process.env, [...settingsVariables(), ...ENTRY_VARIABLES])) step(unknownVariableLine(unknown), 'warn');

  const started: Started = { standIns: [], cuttingOff: false, stopping: false };
  onSignals(gracefulStop(started, step, settings.shutdownTimeoutMs), started, step);

  await checkPortFree(settings.port, '0.0.0.0');
  const { code, standInsStarted, loadedAt } = await loadWhileStandInsStart(settings, allowStandIns, started);
  if (started.stopping) return;
  const upstreams = upstreamSettings(settings, standInsStarted, step);
  if (process.env.DEBUG) step('DEBUG is ignored by the gateway: Mesh debug output would print upstream keys');
  if (settings.gatewayApiKeys.length === 0) {
    step('GATEWAY_API_KEYS is not set, so any client may call the gateway (fine for development only)', 'warn');
  }

  step('building the schema from .meshrc.yaml…');
  const building = performance.now();
  const standInsServing = started.standIns.length > 0;
  const gateway = (started.gateway = await code.createGateway({
    // Tells the gateway (and so /readiness) whether stand-ins serve it, not whether they were allowed.
    settings: { ...settings, ...upstreams, standIns: standInsServing },
    log: step,
    // An engine replaced by a schema swap leaves megabytes of garbage that V8 would return to the
    // system only after a full collection it may put off for long: one collection, once swaps settle.
    onEngineReleased: releaseSwappedMemory,
    requestLog: (entry) => {
      if (!started.cuttingOff) code.writeRequestLogLine(entry);
    },
  }));
  if (started.stopping) return;
  const types = Object.keys(gateway.schema.getTypeMap()).filter((name) => !name.startsWith('__')).length;
  const links = gateway.linksLeftOut.length === 0 ? 'all links in place' : `${gateway.linksLeftOut.length} link(s) left out`;
  const builtAt = performance.now();
  step(`schema ready in ${seconds(builtAt - building)}: ${types} types, ${links}`);

  const withRequestId = requestIdFirst(code);
  // checkContinue: a client sending `Expect: 100-continue` uploads its body only once the head guards let it through.
  const server = (started.server = await listen(withRequestId(gateway.listener), { port: settings.port, host: '0.0.0.0', checkContinue: withRequestId(gateway.checkContinue) }));
  if (started.stopping) {
    await server.close();
    return;
  }
  const over = standInsServing ? `; fake data from the local stand-ins for ${replaced.join(' and ')}` : '';
  // GraphiQL is advertised only when served (GATEWAY_GRAPHIQL; off in production unless enabled).
  const serves = settings.graphiql ? 'GraphiQL in a browser, GraphQL over HTTP for clients' : 'GraphQL over HTTP; GraphiQL off';
  step(`listening: http://localhost:${server.port}/graphql (${serves}${over})`);
  step(startUpLine({ loadedAt, builtAt, listeningAt: performance.now(), standIns: standInsServing }));
  // Only once it answers, and once it is idle: GraphiQL's files.
  code.warmUp({ graphiql: settings.graphiql, idle: () => server.inFlight() === 0 });
  setTimeout(releaseStartUpMemory, RELEASE_AFTER_MS).unref();
}

/**
 * Loads the gateway's code, only once the settings are known to be usable, so a refusal is
 * immediate. The statements' thread and the stand-ins start while it loads (loading waits on files as
 * much as on the CPU), and the stand-ins' code is not loaded at all when no upstream needs one.
 */
async function loadWhileStandInsStart(settings: GatewaySettings, allowStandIns: boolean, started: Started) {
  const { warmStatementThread, warmUp } = await import('./warm-up.ts');
  warmStatementThread();
  const loadingCode = Promise.all([
    import('../gateway/create-gateway.ts'),
    import('../gateway/observability/request-log.ts'),
    import('../gateway/request/observed-request.ts'),
  ]);
  const startingStandIns = startStandIns(settings, allowStandIns, started.standIns);
  // Either may fail first; the other's failure is then of no interest.
  loadingCode.catch(() => undefined);
  startingStandIns.catch(() => undefined);
  const [[{ createGateway }, { writeRequestLogLine }, { REQUEST_ID_HEADER, requestIdFrom }], standInsStarted] = await Promise.all([loadingCode, startingStandIns]);
  return { code: { createGateway, writeRequestLogLine, REQUEST_ID_HEADER, requestIdFrom, warmUp }, standInsStarted, loadedAt: performance.now() };
}

/**
 * A listener that gives each request the id the gateway would pick before the gateway sees it, so a
 * request cut off at shutdown is logged under the same id as its upstream calls and traces.
 */
function requestIdFirst({ REQUEST_ID_HEADER, requestIdFrom }: { REQUEST_ID_HEADER: string; requestIdFrom: (given: string | undefined) => string }) {
  return (serve: RequestListener): RequestListener =>
    (request, response) => {
      const given = request.headers[REQUEST_ID_HEADER];
      request.headers[REQUEST_ID_HEADER] = requestIdFrom(typeof given === 'string' ? given : undefined);
      serve(request, response);
    };
}

let releasing: NodeJS.Timeout | undefined;
/** A full collection a moment after an engine a swap replaced is released: at most one a second, however many swaps. */
function releaseSwappedMemory(): void {
  releasing ??= setTimeout(() => {
    releasing = undefined;
    releaseStartUpMemory();
  }, 1000).unref();
}

// Before the settings are read, NODE_ENV alone says whether lines must be JSON.
const fatal = createEntryLog({ json: process.env.NODE_ENV?.trim() === 'production' });
let settings: GatewaySettings;
try {
  settings = readSettings(process.env);
} catch (error) {
  if (!(error instanceof SettingsError)) throw error;
  fatal(`cannot start: ${error.message}`, 'error');
  process.exit(1);
}
main(settings).catch((error: Error) => {
  fatal(`${error instanceof SettingsError ? 'cannot start' : 'failed to start'}: ${error.message}`, 'error');
  process.exit(1);
});
