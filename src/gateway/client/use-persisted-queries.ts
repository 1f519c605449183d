import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { withStoreTimeout } from '../../shared/with-timeout.ts';
import { createMemoryKeyValueStore, type KeyValueStore } from '../cache/key-value-store.ts';
import { ErrorCode } from '../errors.ts';
import { SettingsError } from '../settings.ts';

/** A trusted-documents manifest: document text by hash (graphql-codegen's `persisted-documents.json`). */
export type TrustedDocuments = Record<string, string>;

export interface PersistedQueriesOptions {
  /**
   * Where documents registered by automatic persisted queries live, under their hash. Shared by
   * replicas when it is a shared store, so a hash registered on one is found on the others.
   * @default createMemoryKeyValueStore({ maxBytes: 8 MiB })
   */
  store?: KeyValueStore;
  /** How long a registered document is kept; 0 turns APQ off. @default 86400000 (24 h) */
  ttlMs?: number;
  /** When given, only these operations run (by hash, document id or exact text); APQ registration is off. */
  trustedDocuments?: TrustedDocuments;
  /** How long the store may take before a lookup counts as a miss. @default 100 */
  storeTimeoutMs?: number;
}

interface PersistedQueryExtension {
  version?: number;
  sha256Hash?: string;
}

/**
 * Automatic persisted queries (the protocol Apollo Client's PersistedQueryLink and urql's
 * persistedExchange speak, GET and POST) and trusted documents. Runs in `onParams`, before the
 * response cache, so everything after it sees the document's text as if the client had sent it.
 *
 * APQ: a hash alone is looked up (PERSISTED_QUERY_NOT_FOUND when unknown, and the client sends the
 * document with it); a document with a hash is stored only when the hash is the document's SHA-256,
 * so no hash can ever be made to mean another document. Trusted documents: only the manifest's
 * operations run, named by `extensions.persistedQuery.sha256Hash` or `documentId`, or sent as the
 * exact text of an entry; nothing is ever registered.
 */
export function usePersistedQueries({
  store = createMemoryKeyValueStore({ maxBytes: 8 * 1024 * 1024 }),
  ttlMs = 24 * 60 * 60 * 1000,
  trustedDocuments,
  storeTimeoutMs = 100,
}: PersistedQueriesOptions = {}): Plugin {
  const trustedTexts = trustedDocuments ? new Set(Object.values(trustedDocuments)) : undefined;
  const keyOf = (hash: string) => `apq:${hash}`;

  return {
    async onParams({ request, params, setParams }) {
      const extension = (params.extensions as { persistedQuery?: PersistedQueryExtension } | undefined)?.persistedQuery;
      // graphql-codegen's convention for trusted documents; yoga's GET parser does not keep it.
      const documentId =
        (params as { documentId?: unknown }).documentId ??
        (request.method === 'GET' ? new URL(request.url).searchParams.get('documentId') ?? undefined : undefined);
      const hash = typeof extension?.sha256Hash === 'string' ? extension.sha256Hash : typeof documentId === 'string' ? documentId : undefined;
      const query = typeof params.query === 'string' && params.query.length > 0 ? params.query : undefined;

      if (trustedDocuments && trustedTexts) {
        if (hash !== undefined) {
          const document = Object.hasOwn(trustedDocuments, hash) ? trustedDocuments[hash] : undefined;
          if (document === undefined || (query !== undefined && query !== document)) throw unknownOperation();
          // yoga refuses parameters it does not know, documentId among them.
          const { documentId: _documentId, ...known } = params as typeof params & { documentId?: unknown };
          setParams({ ...known, query: document });
          return;
        }
        if (query === undefined || !trustedTexts.has(query)) throw persistedOnly();
        return;
      }

      if (!extension) return;
      if (extension.version !== undefined && extension.version !== 1) {
        throw requestError(`Persisted query version ${String(extension.version)} is not supported (only 1).`, ErrorCode.PersistedQueryNotSupported, 400);
      }
      if (hash === undefined) throw requestError('extensions.persistedQuery needs a sha256Hash.', 'BAD_REQUEST', 400);
      if (ttlMs <= 0) {
        if (query !== undefined) return;
        // The message is what clients match on to stop sending hashes.
        throw requestError('PersistedQueryNotSupported', ErrorCode.PersistedQueryNotSupported, 400);
      }
      if (query !== undefined) {
        if (sha256Hex(query) !== hash.toLowerCase()) {
          throw requestError("The persisted query's sha256Hash is not the SHA-256 of its document; nothing was stored.", ErrorCode.PersistedQueryHashMismatch, 400);
        }
        await withStoreTimeout(store, () => store.set(keyOf(hash.toLowerCase()), query, ttlMs), storeTimeoutMs).catch(() => undefined);
        return;
      }
      const stored = await withStoreTimeout(store, () => store.get(keyOf(hash.toLowerCase())), storeTimeoutMs).catch(() => undefined);
      // The message is what clients match on to send the document with its hash.
      if (stored === undefined) throw requestError('PersistedQueryNotFound', ErrorCode.PersistedQueryNotFound, 404);
      setParams({ ...params, query: stored });
    },
  };
}

/** Reads a trusted-documents manifest; a bad one stops start-up with one line naming the variable. */
export function loadTrustedDocuments(path: string): TrustedDocuments {
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new SettingsError('TRUSTED_DOCUMENTS', `cannot read a JSON manifest at ${path} (${(error as Error).message})`);
  }
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest) || !Object.values(manifest).every((value) => typeof value === 'string')) {
    throw new SettingsError('TRUSTED_DOCUMENTS', `expected a JSON object of document texts by hash at ${path}`);
  }
  if (Object.keys(manifest).length === 0) throw new SettingsError('TRUSTED_DOCUMENTS', `the manifest at ${path} holds no document`);
  return manifest as TrustedDocuments;
}

export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

function requestError(message: string, code: string, status: number) {
  return createGraphQLError(message, {
    // No cache may keep a "not found" for a GET that will be found once registered.
    extensions: { code, http: { status, headers: { 'cache-control': 'private, no-cache, must-revalidate' } } },
  });
}

const persistedOnly = () =>
  requestError(
    'This gateway runs only its trusted documents: send the hash of one (extensions.persistedQuery.sha256Hash or documentId), or its exact text.',
    ErrorCode.PersistedQueryOnly,
    400,
  );

const unknownOperation = () =>
  requestError('This gateway runs only its trusted documents, and this hash names none of them.', ErrorCode.UnknownOperation, 400);
