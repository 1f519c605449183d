/**
 * `npm run sources:refresh`: re-introspects the problems service named by PROBLEMS_URL (with
 * PROBLEMS_API_KEY) and rewrites sources/problems/schema.graphql, printing what changed, then the
 * public schema.graphql built over it, so the two never disagree. Without PROBLEMS_URL it reads the
 * local stand-in, which is how the committed snapshot is made.
 */
import { resolve } from 'node:path';
import { PROJECT_ROOT } from '../gateway/project-root.ts';
import { refreshProblemsSnapshot } from '../gateway/schema/problems-snapshot.ts';
import { formatSchemaDiff } from '../gateway/schema/schema-diff.ts';
import { readSettings } from '../gateway/settings.ts';
import { writeSchemaFile } from './write-schema.ts';
import { startProblemsStandIn } from '../upstreams/stand-ins.ts';

const SNAPSHOT = resolve(PROJECT_ROOT, 'sources/problems/schema.graphql');

async function main(): Promise<void> {
  const settings = readSettings(process.env);
  const standIn = settings.problemsUrl ? undefined : await startProblemsStandIn();
  const url = settings.problemsUrl ?? standIn!.url;
  console.log(`Introspecting ${standIn ? 'the local problems stand-in' : 'PROBLEMS_URL'} (${url}/graphql)…`);
  try {
    const { diff, linksLeftOut } = await refreshProblemsSnapshot({
      url,
      apiKey: standIn?.apiKey ?? settings.problemsApiKey,
      snapshotPath: SNAPSHOT,
    });
    console.log(`Wrote ${SNAPSHOT}`);
    console.log(diff ? `Changes since the previous snapshot:\n${formatSchemaDiff(diff)}` : 'No previous snapshot: written fresh.');
    for (const { name, reason } of linksLeftOut) console.log(`Note: link ${name} will be left out: ${reason}`);
    console.log(`Wrote ${await writeSchemaFile(SNAPSHOT)} (the public schema over it, for codegen and editors)`);
    console.log('A gateway serves the live schema whatever the snapshot says; this snapshot is what it falls back on when the service cannot be reached at start.');
  } finally {
    await standIn?.close();
  }
}

main().catch((error: Error) => {
  console.error(`sources:refresh failed: ${error.message}`);
  process.exitCode = 1;
});
