import { createLruCache } from '../stores/lru-cache.ts';
import type { KeyValueStore } from '../stores/key-value-store.ts';
import { sha256Of } from '../../shared/hash.ts';
import { withStoreTimeout } from '../../shared/with-timeout.ts';
import { UpstreamAnswer } from './upstream-answer.ts';
import { clientRequestOf, type SendUpstream, type ServiceStep, type UpstreamCall } from './upstream-call.ts';

export interface ProblemsCacheOptions {
  /** How long an answer is reused; 0 turns caching off (in-flight sharing stays). */
  ttlMs: number;
  /**
   * Where answers are kept: shared by every replica (Redis) or in this process.
   * @default an in-process LRU of `maxBytes`
   */
  store?: KeyValueStore;
  /** Memory bound of the default in-process store. @default 32 MiB */
  maxBytes?: number;
  /** How long the store may take before a read counts as a miss and a write is given up. @default 250 */
  storeTimeoutMs?: number;
}

interface StoredAnswer {
  status: number;
  headers: [string, string][];
  text: string;
}

/**
 * Reuses problems answers for a short time, and shares one upstream call between identical requests
 * in flight. The key holds the client's credential (its `Authorization` header, hashed for a shared
 * store: none leaves the process), the upstream URL, the exact request body and the hash of the problems schema the call is made under, so clients
 * with different credentials never see each other's data, and a schema change leaves what was kept
 * before behind. Only read-only calls are cached, and only answers without errors: a mutation or a
 * failure is never reused. Other services' calls pass through. A store that fails or is slow is a
 * miss, never a failure.
 *
 * One store for every schema, and a step per schema, which keeps and finds answers under that
 * schema's hash alone: an engine takes the step of the schema it was built from, so a request that
 * started before a swap keeps and reads answers under the schema it runs on, whatever the gateway
 * serves by then (and a replica still on another schema never reads them).
 */
export function cacheProblemsAnswers({ ttlMs, store, maxBytes = 32 * 1024 * 1024, storeTimeoutMs = 250 }: ProblemsCacheOptions): (schemaHash: string) => ServiceStep {
  // Kept in this process unless a store is given: read and written at once, with no promise.
  const kept = ttlMs > 0 && !store ? createLruCache<StoredAnswer>({ maxBytes, ttlMs, sizeOf: (key, answer) => sizeInMemory(answer, key) }) : undefined;
  const shared = ttlMs > 0 ? store : undefined;
  const read = async (key: string): Promise<StoredAnswer | undefined> => {
    const text = await withStoreTimeout(shared!, () => shared!.get(key), storeTimeoutMs).catch(() => undefined);
    return text === undefined ? undefined : parse(text);
  };

  return (schemaHash) => {
    // Calls in flight are shared among requests on one schema: each schema has its own, and every
    // chain composed from this step (Mesh's calls, forwarded ones) shares it.
    const inFlight = new Map<string, Promise<UpstreamAnswer>>();

    /** The answer kept in the shared store, or the call's own, kept there when it holds no errors. */
    const fromStore = async (call: UpstreamCall, rest: SendUpstream, authorization: string): Promise<UpstreamAnswer> => {
      const store = shared!;
      const body = call.init.body as string;
      const key = sha256Of(schemaHash, authorization, call.url, body);
      const cached = await read(key);
      if (cached) return toAnswer(cached);
      const own = await rest(call);
      // Awaited (within the store's budget) so that another replica asked next finds it.
      const answer = keepable(own, own.textRead ?? (await own.text()));
      if (answer) await withStoreTimeout(store, () => store.set(key, JSON.stringify(answer), ttlMs), storeTimeoutMs).catch(() => undefined);
      return own;
    };

    /**
     * The call made (or read from the shared store) once for every identical call until it
     * settles: the caller that makes it gets its answer as it came (already read and parsed by the
     * error step), callers sharing it get copies (sharedCopy), as do later ones from the store. Its
     * answer is kept in this process, and its entry in flight dropped, in the one reaction it
     * costs: a later identical call finds one or the other.
     */
    const sharedCall = (call: UpstreamCall, rest: SendUpstream, authorization: string, flight: string): Promise<UpstreamAnswer> => {
      const pending = shared ? fromStore(call, rest, authorization) : rest(call);
      inFlight.set(flight, pending);
      const keyHere = `${schemaHash}\u0000${flight}`;
      pending.then(
        (answer) => {
          inFlight.delete(flight);
          const keep = kept && keepable(answer, answer.textRead);
          if (keep) kept!.set(keyHere, keep);
        },
        () => inFlight.delete(flight),
      );
      return pending;
    };

    return {
      forService(service) {
        if (service !== 'problems') return undefined;
        return {
          around(call, rest) {
            // Mutations and calls without a text body pass straight on, with no promise of this step's own.
            if (!call.readOnly || typeof call.init.body !== 'string') return rest(call);
            const authorization = clientRequestOf(call)?.headers.get('authorization') ?? '';
            // Calls in flight, and answers kept here, are told apart by their parts as they are;
            // only the shared store's key is hashed (no credential leaves the process).
            const flight = `${authorization}\u0000${call.url}\u0000${call.init.body}`;
            const pending = inFlight.get(flight);
            if (pending) return pending.then(sharedCopy);
            const hit = kept?.get(`${schemaHash}\u0000${flight}`);
            if (hit) return Promise.resolve(toAnswer(hit));
            return sharedCall(call, rest, authorization, flight);
          },
        };
      },
    };
  };
}

/** What the store keeps of `answer` (its text read), when it may be kept: a 2xx answer without errors. */
function keepable(answer: UpstreamAnswer, text: string | undefined): StoredAnswer | undefined {
  if (!answer.ok || text === undefined || hasErrors(answer)) return undefined;
  return { status: answer.status, headers: [...answer.headers], text };
}

/** An answer kept in this process weighs its text (JS strings are UTF-16, two bytes a character) and its key. */
function sizeInMemory(answer: StoredAnswer, key: string): number {
  return 2 * (key.length + answer.text.length) + 64;
}

/** A copy of the answer of a call in flight, for a caller sharing it: its own body to read. */
function sharedCopy(answer: UpstreamAnswer): UpstreamAnswer | Promise<UpstreamAnswer> {
  const text = answer.textRead;
  if (text !== undefined) return answer.withText(text);
  return answer.text().then((read) => answer.withText(read));
}

function toAnswer({ status, headers, text }: StoredAnswer): UpstreamAnswer {
  return new UpstreamAnswer({ status, headers: headers.map(([name, value]) => [name.toLowerCase(), value]), body: text });
}

/** An entry of another shape (another version wrote it) is a miss. */
function parse(text: string): StoredAnswer | undefined {
  try {
    const answer = JSON.parse(text) as StoredAnswer;
    return typeof answer?.status === 'number' && Array.isArray(answer.headers) && typeof answer.text === 'string' ? answer : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the answer holds GraphQL errors (or is not JSON): parsed once, by the error step after this one. */
function hasErrors(answer: UpstreamAnswer): boolean {
  try {
    const errors = (answer.parsedJson() as { errors?: unknown[] } | null)?.errors;
    return Array.isArray(errors) && errors.length > 0;
  } catch {
    return true;
  }
}
