/**
 * The longest the event loop is held while the gateway follows a changing problems schema: a gateway
 * starts over a problems service (in this process) answering a schema with an enum of `N` values,
 * then the service's schema changes (one value more, or from a small schema to `N` values with
 * `--from-small`), and the longest turn of the event loop is measured until the change is served or
 * refused, as wall time (what a request waiting then waits, and what a busy machine inflates) and as
 * the main thread's CPU time in that turn (what the load does not change).
 *
 *   node test/bench/schema-build-blocks.ts 112000 --from-small
 *   node test/bench/schema-build-blocks.ts 1
 *
 * With `--at-bounds`, the service's schema is instead one as large as the default bounds allow
 * (types, fields and enum values: test/helpers/bound-size-schema.ts), and changes by one enum value;
 * `--at-bounds=500,5000,5000` sets the gateway's bounds (types, fields, enum values) and the schema's size.
 *
 *   node test/bench/schema-build-blocks.ts --at-bounds
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildSchema, introspectionFromSchema } from 'graphql';
import { createGateway } from '../../src/gateway/create-gateway.ts';
import { listen } from '../../src/shared/listen.ts';
import { typeDefs } from '../../src/upstreams/problems/schema.ts';
import { createTranslationService } from '../../src/upstreams/translation/service.ts';
import { SETTINGS } from '../../src/gateway/settings/setting-table.ts';
import { boundSizeTypeDefs } from '../helpers/bound-size-schema.ts';
import { createChangingProblemsService } from '../helpers/changing-problems-service.ts';
import { PROBLEMS_KEY, TRANSLATION_KEY } from '../helpers/start-stack.ts';

const values = Number(process.argv[2] ?? 112_000);
const fromSmall = process.argv.includes('--from-small');
const boundsArgument = process.argv.find((argument) => argument.startsWith('--at-bounds'));
const atBounds = boundsArgument !== undefined;

/** A schema's introspection answer. */
function answerOf(sdl: string): Buffer {
  return Buffer.from(JSON.stringify({ data: introspectionFromSchema(buildSchema(sdl), { descriptions: true, inputValueDeprecation: true }) }));
}

/** The stand-in's schema with an enum of `count` values (and `extra` ones), as its introspection answer. */
function answerWithEnum(count: number, extra: string[] = []): Buffer {
  const names = [...Array.from({ length: count }, (_, index) => `VALUE_${index}`), ...extra];
  return answerOf(`${typeDefs}\nenum Huge {\n${names.join('\n')}\n}\nextend type Query { huge: Huge }\n`);
}

/** The bounds of `--at-bounds=…`, or the defaults. */
const [maxTypes, maxFields, maxEnumValues] = boundsArgument?.split('=')[1]?.split(',').map(Number) ?? [
  SETTINGS.problemsSchemaMaxTypes.default as number,
  SETTINGS.problemsSchemaMaxFields.default as number,
  SETTINGS.problemsSchemaMaxEnumValues.default as number,
];
const bounds = { maxTypes: maxTypes!, maxFields: maxFields!, maxEnumValues: maxEnumValues! };
/** The schema as large as the bounds allow, `mark` telling one from another. */
const atTheBounds = (mark: string) => answerOf(boundSizeTypeDefs(bounds, mark));

/** The main thread's own CPU time (Node 23.9 and later; the typings in use predate it). */
const threadCpuUsage = () => (process as unknown as { threadCpuUsage(): NodeJS.CpuUsage }).threadCpuUsage();

/** The longest turn of the event loop since `reset`, in wall time and in the main thread's CPU time. */
function turnMonitor() {
  let longestWall = 0;
  let longestCpu = 0;
  let lastWall = performance.now();
  let lastCpu = threadCpuUsage();
  let on = true;
  const turn = () => {
    const wall = performance.now();
    const cpu = threadCpuUsage();
    longestWall = Math.max(longestWall, wall - lastWall);
    longestCpu = Math.max(longestCpu, (cpu.user + cpu.system - lastCpu.user - lastCpu.system) / 1000);
    lastWall = wall;
    lastCpu = cpu;
    if (on) setImmediate(turn);
  };
  setImmediate(turn);
  return {
    reset() {
      longestWall = 0;
      longestCpu = 0;
      lastWall = performance.now();
      lastCpu = threadCpuUsage();
    },
    read: () => `longest turn ${longestWall.toFixed(0)} ms (main thread CPU ${longestCpu.toFixed(0)} ms)`,
    stop: () => void (on = false),
  };
}

const first = atBounds ? atTheBounds('FIRST') : fromSmall ? answerWithEnum(1) : answerWithEnum(values);
const second = atBounds ? atTheBounds('SECOND') : fromSmall ? answerWithEnum(values) : answerWithEnum(values, ['ADDED']);
console.log(`${atBounds ? `schema at the bounds (${Object.values(bounds).join(', ')})` : `schema of ${values} enum values`}: ${(second.byteLength / 1e6).toFixed(1)} MB answer`);
const translation = await listen(createTranslationService({ apiKey: TRANSLATION_KEY }).listener);
const service = createChangingProblemsService({ apiKey: PROBLEMS_KEY });
service.setIntrospectionAnswer(first);
const upstream = await listen(service.listener);
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
const monitor = turnMonitor();
let started = performance.now();
const gateway = await createGateway({
  log: () => undefined,
  requestLog: false,
  settings: {
    problemsUrl: upstream.url,
    problemsApiKey: PROBLEMS_KEY,
    translationUrl: translation.url,
    translationApiKey: TRANSLATION_KEY,
    problemsSchemaPollSeconds: 1,
    ...(atBounds ? { problemsSchemaMaxTypes: bounds.maxTypes, problemsSchemaMaxFields: bounds.maxFields, problemsSchemaMaxEnumValues: bounds.maxEnumValues } : {}),
    problemsSchemaMaxEnumValues: fromSmall ? undefined : atBounds ? bounds.maxEnumValues : values + 1_000,
  },
});
console.log(`start: ${(performance.now() - started).toFixed(0)} ms, ${monitor.read()}, event-loop delay max ${(delay.max / 1e6).toFixed(0)} ms`);
const refusals = async () => (await gateway.metrics.getSingleMetricAsString('gateway_problems_schema_check_failures_total')).match(/reason="bound"} (\d+)/)?.[1] ?? '0';
const before = gateway.schema;
delay.reset();
monitor.reset();
started = performance.now();
service.setIntrospectionAnswer(second);
while (gateway.schema === before && (await refusals()) === '0') await new Promise((resolve) => setTimeout(resolve, 50));
const outcome = gateway.schema === before ? 'refused' : 'served';
console.log(`change (${outcome}): ${(performance.now() - started).toFixed(0)} ms, ${monitor.read()}, event-loop delay max ${(delay.max / 1e6).toFixed(0)} ms`);
monitor.stop();
await gateway.close();
await upstream.close();
await translation.close();
