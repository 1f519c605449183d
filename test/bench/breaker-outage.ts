/**
 * A translation outage under a steady reader load, as issue 31 describes it: one reader request at a
 * time, each a problem with its French translation, while the translation stand-in answers 503 to
 * every call for OUTAGE_SECONDS, then serves again. A standalone measurement (loopback only):
 *
 *   npx tsx test/bench/breaker-outage.ts        (OUTAGE_SECONDS=30, AFTER_SECONDS=5)
 *   GATEWAY_SETTINGS='{"upstreamBreakerFailures":0}' npx tsx test/bench/breaker-outage.ts
 *
 * The translation cache is off, so every reader request needs the service (the worst case for it).
 * Reports the calls the service received during the outage, how long the failing field took while
 * the outage lasted (median and slowest of its second half), how long after the service came back
 * the first translation was served, and whether every answer kept its problems data.
 */
import type { GatewaySettings } from '../../src/gateway/settings.ts';
import { startStack } from '../helpers/start-stack.ts';

const OUTAGE_SECONDS = Number(process.env.OUTAGE_SECONDS ?? 30);
const AFTER_SECONDS = Number(process.env.AFTER_SECONDS ?? 5);
const extra = JSON.parse(process.env.GATEWAY_SETTINGS ?? '{}') as Partial<GatewaySettings>;

const READER = /* GraphQL */ `{ problem(id: "p1001") { id title translation(to: "fr") { title } } }`;

interface Reading {
  at: number;
  ms: number;
  translated: boolean;
  code?: string;
  problemData: boolean;
}

async function main() {
  const stack = await startStack({ settings: { translationCacheTtlSeconds: 0, translationCacheMaxBytes: 0, ...extra } });
  const readings: Reading[] = [];
  const read = async () => {
    const started = performance.now();
    const result = await stack.query(READER);
    readings.push({
      at: started,
      ms: performance.now() - started,
      translated: typeof result.data?.problem?.translation?.title === 'string',
      code: result.errors?.[0]?.extensions?.code,
      problemData: result.data?.problem?.id === 'p1001' && typeof result.data.problem.title === 'string',
    });
  };
  const readFor = async (ms: number, until?: () => boolean) => {
    const end = performance.now() + ms;
    while (performance.now() < end && !until?.()) await read();
  };
  try {
    await readFor(2000);
    stack.translation.resetStats();
    const outageStart = performance.now();
    stack.translation.setFaults({ status: 503 });
    await readFor(OUTAGE_SECONDS * 1000);
    const outageCalls = stack.translation.stats.requests;
    const outageRoutes = { ...stack.translation.stats.byRoute };
    stack.translation.clearFaults();
    const back = performance.now();
    const before = readings.length;
    // Until the first translation is served again (at most a minute), then AFTER_SECONDS more.
    await readFor(60_000, () => readings.slice(before).some((reading) => reading.translated));
    const recovered = readings.slice(before).find((reading) => reading.translated);
    await readFor(AFTER_SECONDS * 1000);
    const during = readings.filter((reading) => reading.at >= outageStart && reading.at < back);
    const lateHalf = during.filter((reading) => reading.at >= outageStart + (OUTAGE_SECONDS * 1000) / 2).map((reading) => reading.ms).sort((a, b) => a - b);
    const codes: Record<string, number> = {};
    for (const reading of during) codes[reading.code ?? 'none'] = (codes[reading.code ?? 'none'] ?? 0) + 1;
    console.log(
      JSON.stringify(
        {
          settings: extra,
          outageSeconds: OUTAGE_SECONDS,
          readerRequestsDuringOutage: during.length,
          translationCallsDuringOutage: outageCalls,
          translationCallsByRoute: outageRoutes,
          errorCodesDuringOutage: codes,
          failingFieldMsSecondHalf: {
            median: round(lateHalf[Math.floor(lateHalf.length / 2)]),
            slowest: round(lateHalf.at(-1)),
            over200ms: lateHalf.filter((ms) => ms > 200).length,
            of: lateHalf.length,
          },
          firstTranslationAfterRecoveryMs: recovered ? round(recovered.at + recovered.ms - back) : null,
          readerRequestsTotal: readings.length,
          everyAnswerHadProblemsData: readings.every((reading) => reading.problemData),
        },
        null,
        2,
      ),
    );
  } finally {
    await stack.close();
  }
}

function round(value: number | undefined): number | null {
  return value === undefined ? null : Math.round(value);
}

await main();
