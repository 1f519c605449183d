import { deferredFieldsTransform } from '../execution/delegate/deferred-fields-transform.ts';
import { fragmentTypenameTransform } from '../execution/delegate/fragment-typename-transform.ts';
import type { GatewayLog } from '../gateway-log.ts';
import { buildMesh, type BuiltMesh } from '../mesh.ts';
import type { SourceMemo } from '../mesh-turns.ts';
import type { IntrospectedSchema } from '../schema/introspection.ts';
import type { GatewaySettings } from '../settings.ts';
import { useTranslationRuntime, type TranslationRuntime } from '../translation/translation-runtime.ts';
import { useOperationLanguage } from '../translation/use-operation-language.ts';
import { useSingleLanguageVariables } from '../translation/single-language-variables.ts';
import type { ServiceName } from '../errors.ts';
import type { SendUpstream } from '../upstream/upstream-call.ts';
import { useUpstreamCalls } from '../upstream/upstream-calls.ts';
import type { UpstreamFetch } from '../upstream/upstream-fetch.ts';

export interface EngineMeshParts {
  settings: GatewaySettings;
  /** Directory holding `.meshrc.yaml`. */
  baseDir: string | undefined;
  /** The log as every engine's build writes it (see logOnceOf). */
  log: GatewayLog;
  upstreamFetch: UpstreamFetch;
  translationRuntime: TranslationRuntime;
}

/**
 * The mesh of each problems schema, with what the gateway adds inside Mesh: the upstream steps of
 * that schema, the translation runtime and the reader's language, and the delegation workarounds
 * (execution/delegate/). The translation source's schema is built once from its OpenAPI document:
 * the same at every build.
 */
export function engineMeshBuilder({ settings, baseDir, log, upstreamFetch, translationRuntime }: EngineMeshParts): (problems: IntrospectedSchema, upstream: EngineUpstream) => Promise<BuiltMesh> {
  const sourceMemo: SourceMemo = new Map();
  return (problems, upstream) =>
    buildMesh({
      settings,
      baseDir,
      problemsSchema: problems.sdl,
      log,
      fetch: upstreamFetch.fetch,
      plugins: (sources) => [useUpstreamCalls(sources, upstream.chains, upstream.signal), useTranslationRuntime(translationRuntime), useOperationLanguage(), useSingleLanguageVariables()],
      sourceTransforms: () => [fragmentTypenameTransform(), deferredFieldsTransform()],
      sourceMemo,
    });
}

/** The engine's upstream steps, composed once for Mesh's calls and forwarded ones, and the signal every call goes under. */
export interface EngineUpstream {
  chains: Record<ServiceName, SendUpstream>;
  /** Aborted when the engine is disposed (once its requests have ended) or the gateway closes. */
  signal: AbortSignal;
}

/** The log, but a link (or a name) left out stays left out schema after schema: said once, not at every swap. */
export function logOnceOf(log: GatewayLog): GatewayLog {
  const said = new Set<string>();
  return (line, level) => {
    if (line.startsWith('link ') || line.startsWith('names ')) {
      if (said.has(line)) return;
      said.add(line);
    }
    log(line, level);
  };
}
