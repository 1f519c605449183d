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
import type { Gateway } from '../gateway/create-gateway.ts';
import { SettingsError, readSettings, settingsVariables, unknownVariableLine, unknownVariables, type GatewaySettings } from '../gateway/settings.ts';
import { createEntryLog } from './entry-log.ts';
import { checkPortFree, listen, type CutOffRequest, type RunningServer } from '../shared/listen.ts';
import { RELEASE_AFTER_MS, releaseStartUpMemory } from './release-start-up-memory.ts';
import { seconds, startUpLine } from './start-up-line.ts';
import type { StandIn } from '../upstreams/stand-ins.ts';

// Node 22.1 and later keep the code compiled for each module on disk (in the system's temporary
// folder, checked against each file's contents), so the next start compiles only what changed; the
// gateway's own code and Mesh load after this line. Node 20 has no such cache: then nothing happens.
// The entry's to decide, not the library's: an app that embeds the gateway owns its process.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

/** Past the drain, closing the gateway and the stand-ins gets this long before the process exits anyway. */
const CLOSE_GRACE_MS = 5_000;

/** A URL as it may be printed: user and password removed. */
function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString().replace(/\/$/, '');
}

/** Variables the entry reads itself, beside the settings' own (settingsVariables). */
const ENTRY_VARIABLES = ['DEBUG'];

const UPSTREAMS = [
  { name: 'problems', urlSetting: 'problemsUrl', urlVariable: 'PROBLEMS_URL' },
  { name: 'translation', urlSetting: 'translationUrl', urlVariable: 'TRANSLATION_URL' },
] as const;

/**
 * Whether stand-ins may replace the upstreams that have no URL. Refused with one line naming the
 * variables, before anything starts: in production (or with STAND_INS=false) a missing URL must stop
 * start-up rather than serve the stand-ins' fake data.
 */
function standInsAllowed(settings: GatewaySettings): boolean {
  const allowed = settings.standIns ?? !settings.production;
  const missing = UPSTREAMS.filter(({ urlSetting }) => !settings[urlSetting]).map(({ urlVariable }) => urlVariable);
  if (missing.length > 0 && !allowed) {
    const why = settings.standIns === false ? 'STAND_INS=false' : 'in production (NODE_ENV=production) the gateway';
    throw new SettingsError(
      missing.join(', '),
      `not set, and ${why} runs no stand-ins with fake data: set ${missing.length > 1 ? "them to the services' base URLs" : "it to the service's base URL"} (or STAND_INS=true to run the local stand-ins on purpose)`,
    );
  }
  return allowed;
}

async function main(settings: GatewaySettings): Promise<void> {
  const allowStandIns = standInsAllowed(settings);
  const replaced = UPSTREAMS.filter(({ urlSetting }) => !settings[urlSetting]).map(({ name }) => name);
  // Asked for by name: every line says so, so fake data is never mistaken for the real services.
  const standInsServe = Boolean(settings.standIns) && replaced.length > 0;
  const step = createEntryLog({
    json: settings.production,
    prefix: standInsServe ? '[gateway] [stand-ins]' : '[gateway]',
    fields: standInsServe ? { standIns: true } : {},
  });
  const timeoutMs = settings.shutdownTimeoutMs;
  // First, so an operator who misspelt a limit reads it before believing it set.
  for (const unknown of unknownVariables(process.env, [...settingsVariables(), ...ENTRY_VARIABLES])) step(unknownVariableLine(unknown), 'warn');

  const standIns: StandIn[] = [];
  let gateway: Gateway | undefined;
  let server: RunningServer | undefined;
  // Once requests are being cut off, the lines their handlers may still write would claim answers
  // nobody received: the cut-off lines below replace them.
  let cuttingOff = false;

  let stopping = false;
  const stop = async (reason: string) => {
    // A second signal is expected, not a demand to hurry: Ctrl-C under npm reaches this process
    // twice (from the terminal, and forwarded by npm). SHUTDOWN_TIMEOUT_MS bounds the wait anyway.
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      step(`did not stop within ${timeoutMs + CLOSE_GRACE_MS} ms; exiting`, 'error');
      process.exit(1);
    }, timeoutMs + CLOSE_GRACE_MS).unref();
    let cutOff: CutOffRequest[] = [];
    if (server) {
      const running = server.inFlight();
      // Said once the listener is closed, so whoever reads the line finds new connections refused.
      const draining = server.shutdown(timeoutMs, () => (cuttingOff = true));
      step(`${reason}: stopping: refusing new connections, waiting up to ${timeoutMs} ms for ${running} request(s) in flight`);
      ({ cutOff } = await draining.catch(() => ({ cutOff: [] })));
      for (const { method, path, requestId, runningMs } of cutOff) {
        const line = { level: 'warn', msg: 'request cut off at shutdown', time: new Date().toISOString(), requestId, method, path, durationMs: runningMs };
        process.stdout.write(`${JSON.stringify(line)}\n`);
      }
    } else {
      step(`${reason}: stopping before start-up finished`);
    }
    // The gateway before the upstreams it calls. After a cut-off, closing would wait for the upstream
    // calls of requests nobody awaits any more: only the traces are worth sending.
    if (cutOff.length === 0) await gateway?.close().catch(() => undefined);
    else await gateway?.flushTraces().catch(() => undefined);
    for (const standIn of standIns) await standIn.close().catch(() => undefined);
    step(cutOff.length === 0 ? 'stopped: every request answered' : `stopped: ${cutOff.length} request(s) cut off after ${timeoutMs} ms`);
    process.exit(cutOff.length === 0 ? 0 : 1);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // Only a signal stops the gateway, never a change of parent: nohup, setsid, process managers,
  // container inits and deploy scripts that exit after starting it all leave it reparented, and it
  // must keep serving. (`npm start` execs node, so npm's own signals reach this process directly.)
  // Nor a hang-up: Node puts SIGHUP back to its default (exit) at start, undoing what nohup set, so
  // the terminal that started the gateway closing would end it without a word. Said once: a closing
  // terminal may deliver it twice (from the shell and from the kernel).
  let hungUp = false;
  process.on('SIGHUP', () => {
    if (hungUp || stopping) return;
    hungUp = true;
    step('SIGHUP (the terminal closed, or a reload was asked for): ignored, still serving; nothing is reloaded on a signal, stop with SIGTERM', 'warn');
  });
  // Once that terminal is gone, writing to it fails (EIO): lines are lost then, never the gateway.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', ignoreClosedOutput);

  // Loaded only once the settings are known to be usable, so a refusal is immediate. The statements'
  // thread and the stand-ins start while the gateway's code loads (loading waits on files as much as
  // on the CPU), and the stand-ins' code is not loaded at all when no upstream needs one (production).
  await checkPortFree(settings.port, '0.0.0.0');
  const { warmStatementThread, warmUp } = await import('./warm-up.ts');
  warmStatementThread();
  const loadingCode = Promise.all([
    import('../gateway/create-gateway.ts'),
    import('../gateway/observability/request-log.ts'),
    import('../gateway/request/observed-request.ts'),
  ]);
  const startingStandIns = startStandIns(settings, allowStandIns, standIns);
  // Either may fail first; the other's failure is then of no interest.
  loadingCode.catch(() => undefined);
  startingStandIns.catch(() => undefined);
  const [[{ createGateway }, { writeRequestLogLine }, { REQUEST_ID_HEADER, requestIdFrom }], started] = await Promise.all([loadingCode, startingStandIns]);
  const loadedAt = performance.now();
  if (stopping) return;

  const upstreams: Partial<GatewaySettings> = {};
  for (const { name, urlSetting, urlVariable } of UPSTREAMS) {
    const url = settings[urlSetting];
    if (url) {
      step(`${name}: ${withoutCredentials(url)} (from ${urlVariable})`);
      continue;
    }
    const standIn = started[name];
    if (!standIn) continue;
    step(`${name}: local stand-in with fake data at ${standIn.url} (set ${urlVariable} to use a real service)`);
    // The stand-in's URL and key replace the unset ones; everything else is as read.
    if (name === 'problems') Object.assign(upstreams, { problemsUrl: standIn.url, problemsApiKey: standIn.apiKey });
    else Object.assign(upstreams, { translationUrl: standIn.url, translationApiKey: standIn.apiKey });
  }

  if (process.env.DEBUG) step('DEBUG is ignored by the gateway: Mesh debug output would print upstream keys');
  if (settings.gatewayApiKeys.length === 0) {
    step('GATEWAY_API_KEYS is not set, so any client may call the gateway (fine for development only)', 'warn');
  }
  step('building the schema from .meshrc.yaml…');
  const building = performance.now();
  gateway = await createGateway({
    // Tells the gateway (and so /readiness) whether stand-ins serve it, not whether they were allowed.
    settings: { ...settings, ...upstreams, standIns: standIns.length > 0 },
    log: step,
    // An engine replaced by a schema swap leaves megabytes of garbage that V8 would return to the
    // system only after a full collection it may put off for long: one collection, once swaps settle.
    onEngineReleased: releaseSwappedMemory,
    requestLog: (entry) => {
      if (!cuttingOff) writeRequestLogLine(entry);
    },
  });
  if (stopping) return;
  const types = Object.keys(gateway.schema.getTypeMap()).filter((name) => !name.startsWith('__')).length;
  const links = gateway.linksLeftOut.length === 0 ? 'all links in place' : `${gateway.linksLeftOut.length} link(s) left out`;
  const builtAt = performance.now();
  step(`schema ready in ${seconds(builtAt - building)}: ${types} types, ${links}`);
  const withRequestId =
    (serve: RequestListener): RequestListener =>
    (request, response) => {
      // The id the gateway would pick, picked here, so a request cut off at shutdown is logged under
      // the same id as its upstream calls and traces.
      const given = request.headers[REQUEST_ID_HEADER];
      request.headers[REQUEST_ID_HEADER] = requestIdFrom(typeof given === 'string' ? given : undefined);
      serve(request, response);
    };
  // checkContinue: a client sending `Expect: 100-continue` uploads its body only once the head guards let it through.
  server = await listen(withRequestId(gateway.listener), { port: settings.port, host: '0.0.0.0', checkContinue: withRequestId(gateway.checkContinue) });
  if (stopping) {
    await server.close();
    return;
  }
  const over = standIns.length > 0 ? `; fake data from the local stand-ins for ${replaced.join(' and ')}` : '';
  // GraphiQL is advertised only when served (GATEWAY_GRAPHIQL; off in production unless enabled).
  const serves = settings.graphiql ? 'GraphiQL in a browser, GraphQL over HTTP for clients' : 'GraphQL over HTTP; GraphiQL off';
  step(`listening: http://localhost:${server.port}/graphql (${serves}${over})`);
  step(startUpLine({ loadedAt, builtAt, listeningAt: performance.now(), standIns: standIns.length > 0 }));
  // Only once it answers, and once it is idle: GraphiQL's files.
  const running = server;
  warmUp({ graphiql: settings.graphiql, idle: () => running.inFlight() === 0 });
  setTimeout(releaseStartUpMemory, RELEASE_AFTER_MS).unref();
}

/** A write to an output that has gone away (a closed terminal, a closed pipe) is dropped; anything else is raised. */
function ignoreClosedOutput(error: NodeJS.ErrnoException): void {
  if (error.code === 'EIO' || error.code === 'EPIPE') return;
  throw error;
}

let releasing: NodeJS.Timeout | undefined;
/** A full collection a moment after an engine a swap replaced is released: at most one a second, however many swaps. */
function releaseSwappedMemory(): void {
  releasing ??= setTimeout(() => {
    releasing = undefined;
    releaseStartUpMemory();
  }, 1000).unref();
}

/**
 * Starts the stand-ins for the upstreams that have no URL (when allowed), both at once, and adds
 * each to `standIns` as soon as it listens, so a stop during start-up closes it.
 */
async function startStandIns(settings: GatewaySettings, allowed: boolean, standIns: StandIn[]): Promise<Partial<Record<(typeof UPSTREAMS)[number]['name'], StandIn>>> {
  const needed = UPSTREAMS.filter(({ urlSetting }) => !settings[urlSetting]);
  if (!allowed || needed.length === 0) return {};
  const { startProblemsStandIn, startTranslationStandIn } = await import('../upstreams/stand-ins.ts');
  const starting = needed.map(async ({ name }) => {
    const standIn = await (name === 'problems'
      ? startProblemsStandIn({ apiKey: settings.problemsApiKey })
      : startTranslationStandIn({ apiKey: settings.translationApiKey }));
    standIns.push(standIn);
    return [name, standIn] as const;
  });
  const outcomes = await Promise.allSettled(starting);
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return Object.fromEntries(outcomes.map((outcome) => (outcome as PromiseFulfilledResult<readonly [string, StandIn]>).value));
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
