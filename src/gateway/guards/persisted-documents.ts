import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Kind, Lexer, Source, TokenKind, parse, print, visit, type DocumentNode } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { withStoreTimeout } from '../../shared/with-timeout.ts';
import { createMemoryKeyValueStore, type KeyValueStore, type WriteBound } from '../stores/key-value-store.ts';
import { gatewayRequestOf, handedOperationOf } from '../request/gateway-request.ts';
import { ErrorCode } from '../errors.ts';
import { defaultOf, SettingsError } from '../settings.ts';

/** A trusted-documents manifest: document text by hash (graphql-codegen's `persisted-documents.json`). */
export type TrustedDocuments = Record<string, string>;

export interface PersistedQueriesOptions {
  /**
   * Where documents registered by automatic persisted queries live, under their hash. Shared by
   * replicas when it is a shared store, so a hash registered on one is found on the others.
   * @default createMemoryKeyValueStore({ maxBytes: STORE_MAX_BYTES })
   */
  store?: KeyValueStore;
  /** How long a registered document is kept; 0 turns APQ off. @default as PERSISTED_QUERIES_TTL_SECONDS */
  ttlMs?: number;
  /**
   * When given, only these operations run (by hash, document id, or text: any printing of an entry's
   * document, see canonicalDocument); APQ registration is off.
   */
  trustedDocuments?: TrustedDocuments;
  /** How long the store may take before a lookup counts as a miss. @default 100 */
  storeTimeoutMs?: number;
}

interface PersistedQueryExtension {
  version?: number;
  sha256Hash?: string;
}

/** A request's parameters as the persisted documents read them (yoga's, or the front door's). */
export interface PersistedParams {
  query?: unknown;
  extensions?: unknown;
  documentId?: unknown;
}

/**
 * What a request's parameters come to once a persisted hash or trusted document is resolved: the
 * document to run (`query`), the extensions without a hash that was found (so that validation does
 * not take it for a registration), and `register`, the hash a document sent with its own SHA-256
 * is to be kept under once it has validated. Undefined: the parameters run as sent.
 */
export interface ResolvedParams {
  params: PersistedParams & { query: string };
  register?: string;
}

/**
 * Automatic persisted queries and trusted documents, as plain functions over a request's parameters,
 * which yoga's plugin (usePersistedQueries) and the front door (pipeline/front-door/) both call:
 * the same answers, the same errors, the same store, whichever serves the request.
 */
export interface PersistedDocuments {
  /**
   * The parameters with their document resolved, undefined when they need no change, or a thrown
   * GraphQLError (PERSISTED_QUERY_NOT_FOUND, …) that is the whole answer. `method` and `search`: a
   * GET's `documentId` is read from its query string (yoga's GET parser does not keep it).
   */
  resolve(params: PersistedParams, method: string, url: string): ResolvedParams | undefined | Promise<ResolvedParams | undefined>;
  /** Whether only trusted documents run: then every operation's text is resolved, not only a hash's. */
  readonly trustedOnly: boolean;
  /** Keeps `query` under `hash` (resolve said `register`) once it has passed parsing and validation; in the background. */
  register(hash: string, query: string, owner: string | undefined): void;
}

/**
 * Automatic persisted queries (the protocol Apollo Client's PersistedQueryLink and urql's
 * persistedExchange speak, GET and POST) and trusted documents.
 *
 * APQ: a hash alone is looked up (PERSISTED_QUERY_NOT_FOUND when unknown, and the client sends the
 * document with it); a document with a hash is stored only when the hash is the document's SHA-256,
 * so no hash can ever be made to mean another document, and only once it has passed parsing and
 * validation with the operation limits (stored when its validation ends), at most
 * MAX_STORED_DOCUMENT_CHARS long, within the client's share of the store (CLIENT_SHARE): a client
 * registering more drops its own oldest, never another's, even with the whole store full (then only
 * its own make room, or it is not kept). A document not stored still runs; its
 * client sends it again with the hash next time. Trusted documents: only the manifest's
 * operations run, named by `extensions.persistedQuery.sha256Hash` or `documentId`, or sent as the
 * text of an entry in any printing of it (clients print documents their own way: graphql-request
 * sends graphql-js' print of a codegen document whose manifest entry is normalized); what runs is
 * always the manifest's own text. Nothing is ever registered.
 */
export function createPersistedDocuments({
  store = createMemoryKeyValueStore({ maxBytes: STORE_MAX_BYTES }),
  ttlMs = defaultOf('persistedQueriesTtlSeconds') * 1000,
  trustedDocuments,
  storeTimeoutMs = 100,
}: PersistedQueriesOptions = {}): PersistedDocuments {
  const trusted = trustedDocuments && trustedTextsOf(trustedDocuments);
  const keyOf = (hash: string) => `apq:${hash}`;

  /** Only the manifest's documents: named by hash or id, or sent as (a printing of) an entry's text. */
  function resolveTrusted(manifest: TrustedDocuments, texts: TrustedTexts, params: PersistedParams, hash: string | undefined, query: string | undefined): ResolvedParams | undefined {
    if (hash !== undefined) {
      const document = Object.hasOwn(manifest, hash) ? manifest[hash] : undefined;
      if (document === undefined || (query !== undefined && texts.find(query) !== document)) throw unknownOperation();
      // yoga refuses parameters it does not know, documentId among them.
      const { documentId: _documentId, ...known } = params;
      return { params: { ...known, query: document } };
    }
    const document = query === undefined ? undefined : texts.find(query);
    if (document === undefined) throw persistedOnly();
    return document === query ? undefined : { params: { ...params, query: document } };
  }

  /** APQ: a hash alone looked up, a document with its hash checked (and registered once valid). */
  function resolveAutomatic(params: PersistedParams, extension: PersistedQueryExtension, hash: string | undefined, query: string | undefined): ResolvedParams | undefined | Promise<ResolvedParams | undefined> {
    if (extension.version !== undefined && extension.version !== 1) {
      throw requestError(`Persisted query version ${String(extension.version)} is not supported (only 1).`, ErrorCode.PersistedQueryNotSupported, 400);
    }
    if (hash === undefined) throw requestError('extensions.persistedQuery needs a sha256Hash.', 'BAD_REQUEST', 400);
    if (ttlMs <= 0) {
      if (query !== undefined) return undefined;
      // The message is what clients match on to stop sending hashes.
      throw requestError('PersistedQueryNotSupported', ErrorCode.PersistedQueryNotSupported, 400);
    }
    if (query !== undefined) {
      if (sha256Hex(query) !== hash.toLowerCase()) {
        throw requestError("The persisted query's sha256Hash is not the SHA-256 of its document; nothing was stored.", ErrorCode.PersistedQueryHashMismatch, 400);
      }
      // Stored once it has been validated (register), if it is not too long to keep.
      return query.length > MAX_STORED_DOCUMENT_CHARS ? undefined : { params: params as ResolvedParams['params'], register: hash };
    }
    return withStoreTimeout(store, () => store.get(keyOf(hash.toLowerCase())), storeTimeoutMs)
      .catch(() => undefined)
      .then((stored) => {
        // The message is what clients match on to send the document with its hash.
        if (stored === undefined) throw requestError('PersistedQueryNotFound', ErrorCode.PersistedQueryNotFound, 404);
        // Found: without its hash from here on, so that validation does not take it for a registration.
        const { persistedQuery: _found, ...extensions } = params.extensions as Record<string, unknown>;
        return { params: { ...params, query: stored, extensions } };
      });
  }

  return {
    trustedOnly: trusted !== undefined,
    resolve(params, method, url) {
      const extension = (params.extensions as { persistedQuery?: PersistedQueryExtension } | undefined)?.persistedQuery;
      // graphql-codegen's convention for trusted documents; yoga's GET parser does not keep it.
      const documentId = params.documentId ?? (method === 'GET' && url.includes('documentId') ? new URL(url).searchParams.get('documentId') ?? undefined : undefined);
      const hash = typeof extension?.sha256Hash === 'string' ? extension.sha256Hash : typeof documentId === 'string' ? documentId : undefined;
      const query = typeof params.query === 'string' && params.query.length > 0 ? params.query : undefined;
      if (trustedDocuments && trusted) return resolveTrusted(trustedDocuments, trusted, params, hash, query);
      return extension ? resolveAutomatic(params, extension, hash, query) : undefined;
    },
    register(hash, query, owner = 'anonymous') {
      if (trusted || ttlMs <= 0 || query.length > MAX_STORED_DOCUMENT_CHARS) return;
      const bound: WriteBound = { maxBytes: STORE_MAX_BYTES, owner, ownerMaxBytes: STORE_MAX_BYTES * CLIENT_SHARE };
      void withStoreTimeout(store, () => store.set(keyOf(hash.toLowerCase()), query, ttlMs, bound), storeTimeoutMs).catch(() => undefined);
    },
  };
}

/**
 * The persisted documents (createPersistedDocuments) as a yoga plugin, for the requests yoga serves
 * behind the front door. Runs in `onParams`, before the response cache, so everything after it
 * sees the document's text as if the client had sent it; a document sent to register is kept once
 * its validation ends valid (parsed within the token limit, and valid under every validation rule:
 * depth, aliases, directives, introspection), written in the background.
 */
export function usePersistedQueries(options: PersistedQueriesOptions | PersistedDocuments = {}): Plugin {
  const persisted = 'resolve' in options ? options : createPersistedDocuments(options);
  return {
    async onParams({ request, params, context, setParams }) {
      // Resolved by the front door before it handed the request on (a document it does not plan).
      const handed = handedOperationOf(context);
      if (handed) {
        if (handed.resolved) setParams(handed.resolved as typeof params);
        return;
      }
      const resolved = await persisted.resolve(params as PersistedParams, request.method, request.url);
      if (resolved && resolved.params !== params) setParams(resolved.params as typeof params);
    },
    onValidate({ context }) {
      // A document that still comes with its hash here is one sent to register (onParams checked the hash).
      const { params } = context as { params?: { query?: unknown; extensions?: { persistedQuery?: PersistedQueryExtension } } };
      const query = params?.query;
      const hash = params?.extensions?.persistedQuery?.sha256Hash;
      if (typeof query !== 'string' || typeof hash !== 'string') return;
      const owner = gatewayRequestOf(context)?.identity;
      return ({ valid }) => {
        if (valid) persisted.register(hash, query, owner);
      };
    },
  };
}

/** What registered documents may take of the store: as a shared store's budget, and the in-process store's size. */
const STORE_MAX_BYTES = 8 * 1024 * 1024;
/** One client's share of the store: a sixteenth, so sixteen clients at least share it whole. */
const CLIENT_SHARE = 1 / 16;
/**
 * Longest document registered. Operations clients send are a few kilobytes; a longer text (long
 * strings and comments are free of the token limit) still runs when sent whole, but is not kept.
 */
const MAX_STORED_DOCUMENT_CHARS = 32 * 1024;

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

/** The manifest's texts, found by their exact text or by their canonical form. */
interface TrustedTexts {
  /** The manifest's text of the document `query` is a printing of, or undefined. */
  find(query: string): string | undefined;
}

function trustedTextsOf(manifest: TrustedDocuments): TrustedTexts {
  const exact = new Set(Object.values(manifest));
  const byCanonical = new Map<string, string>();
  let mostTokens = 0;
  for (const text of exact) {
    try {
      const document = parse(text, { noLocation: true });
      byCanonical.set(canonicalDocument(document), text);
      mostTokens = Math.max(mostTokens, tokenCount(text));
    } catch {
      // An entry that does not parse can only ever run as its exact text (and fails there).
    }
  }
  return {
    find(query) {
      if (exact.has(query)) return query;
      let document: DocumentNode;
      try {
        // More tokens than the largest entry cannot be a printing of one: parsing stops there, so an
        // untrusted client cannot make the gateway parse a large document before any limit applies.
        document = parse(query, { noLocation: true, maxTokens: mostTokens });
      } catch {
        return undefined;
      }
      return byCanonical.get(canonicalDocument(document));
    },
  };
}

function tokenCount(text: string): number {
  const lexer = new Lexer(new Source(text));
  let count = 0;
  while (lexer.advance().kind !== TokenKind.EOF) count += 1;
  return count;
}

/**
 * One printing of every document that means the same operations: graphql-js' print (no comments,
 * one layout) after sorting what order does not change: variable definitions, arguments, and
 * selections (by their own printing), except in a document with a mutation. Aliases,
 * directives, values and names all stay, so two documents with the same form ask the same thing.
 */
export function canonicalDocument(document: DocumentNode): string {
  const byName = <T extends { name: { value: string } }>(nodes: readonly T[] | undefined) =>
    nodes && [...nodes].sort((a, b) => compare(a.name.value, b.name.value));
  // A mutation's root fields run one after another, in order, fragments spread there included.
  const inOrder = document.definitions.some((definition) => definition.kind === Kind.OPERATION_DEFINITION && definition.operation === 'mutation');
  const sorted = visit(document, {
    OperationDefinition: {
      leave: (node) => ({ ...node, variableDefinitions: node.variableDefinitions && [...node.variableDefinitions].sort((a, b) => compare(a.variable.name.value, b.variable.name.value)) }),
    },
    Field: { leave: (node) => ({ ...node, arguments: byName(node.arguments) }) },
    SelectionSet: {
      leave: (node) => {
        if (inOrder) return node;
        const printed = node.selections.map((selection) => [print(selection), selection] as const).sort(([a], [b]) => compare(a, b));
        return { ...node, selections: printed.map(([, selection]) => selection) };
      },
    },
  });
  return print(sorted);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
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
    'This gateway runs only its trusted documents: send the hash of one (extensions.persistedQuery.sha256Hash or documentId), or its text.',
    ErrorCode.PersistedQueryOnly,
    400,
  );

const unknownOperation = () =>
  requestError('This gateway runs only its trusted documents, and this hash names none of them.', ErrorCode.UnknownOperation, 400);
