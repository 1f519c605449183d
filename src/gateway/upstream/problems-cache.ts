import { createMemoryKeyValueStore, type KeyValueStore } from '../stores/key-value-store.ts';
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
 * in flight. The key holds the client's credential (its `Authorization` header, hashed), the upstream
 * URL, the exact request body and the hash of the problems schema the call is made under, so clients
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
  const answers = ttlMs > 0 ? (store ?? createMemoryKeyValueStore({ maxBytes })) : undefined;
  const read = async (key: string): Promise<StoredAnswer | undefined> => {
    if (!answers) return undefined;
    const text = await withStoreTimeout(answers, () => answers.get(key), storeTimeoutMs).catch(() => undefined);
    return text === undefined ? undefined : parse(text);
  };

  return (schemaHash) => {
    // Calls in flight are shared among requests on one schema: each schema has its own, and every
    // chain composed from this step (Mesh's calls, forwarded ones) shares it.
    const inFlight = new Map<string, Promise<UpstreamAnswer>>();

    /**
     * The call made (or read from the store) once for every identical call until it settles: the
     * caller that makes it gets its answer as it came (already read and parsed by the error step),
     * callers sharing it get copies (sharedCopy), as do later ones from the store.
     */
    const shared = (call: UpstreamCall, next: SendUpstream, authorization: string, flight: string): Promise<UpstreamAnswer> => {
      // With no store, the answer is the call's own: no promise of this step's own beyond the entry's removal.
      const pending = answers ? fromStore(call, next, authorization) : next(call);
      inFlight.set(flight, pending);
      const forget = () => inFlight.delete(flight);
      pending.then(forget, forget);
      return pending;
    };

    /** The answer kept in the store, or the call's own, kept there when it holds no errors. */
    const fromStore = async (call: UpstreamCall, next: SendUpstream, authorization: string): Promise<UpstreamAnswer> => {
      const store = answers!;
      const body = call.init.body as string;
      const key = sha256Of(schemaHash, authorization, call.url, body);
      const cached = await read(key);
      if (cached) return toResponse(cached);
      const own = await next(call);
      const answer: StoredAnswer = { status: own.status, headers: [...own.headers], text: await own.text() };
      // Awaited (within the store's budget) so that another replica asked next finds it.
      if (own.ok && !(await hasErrors(own))) {
        await withStoreTimeout(store, () => store.set(key, JSON.stringify(answer), ttlMs), storeTimeoutMs).catch(() => undefined);
      }
      return own;
    };

    return {
      forService(service, next) {
        if (service !== 'problems') return next;
        return (call) => {
          // Mutations and calls without a text body pass straight on, with no promise of this step's own.
          if (!call.readOnly || typeof call.init.body !== 'string') return next(call);
          const authorization = clientRequestOf(call)?.headers.get('authorization') ?? '';
          // Calls in flight are told apart by their parts as they are; only the store's key is hashed.
          const flight = `${authorization}\u0000${call.url}\u0000${call.init.body}`;
          const pending = inFlight.get(flight);
          if (pending) return pending.then(sharedCopy);
          return shared(call, next, authorization, flight);
        };
      },
    };
  };
}

/** A copy of the answer of a call in flight, for a caller sharing it: its own body to read. */
function sharedCopy(answer: UpstreamAnswer): Promise<UpstreamAnswer> {
  return answer.text().then((text) => answer.withText(text));
}

function toResponse({ status, headers, text }: StoredAnswer): UpstreamAnswer {
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

/** Whether the answer holds GraphQL errors (or is not JSON): parsed once, by the error step before this one. */
async function hasErrors(answer: UpstreamAnswer): Promise<boolean> {
  try {
    const errors = ((await answer.json()) as { errors?: unknown[] } | null)?.errors;
    return Array.isArray(errors) && errors.length > 0;
  } catch {
    return true;
  }
}
