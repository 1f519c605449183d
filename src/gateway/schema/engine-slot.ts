/** Something built from one problems schema that holds resources until disposed. */
export interface Disposable {
  dispose(): Promise<void>;
}

/** A request's hold on the engine it started on. */
export interface EngineLease<E> {
  engine: E;
  /** Idempotent: the engine may be disposed once every lease on it is released. */
  release(): void;
}

export interface EngineSlot<E extends Disposable> {
  /** The engine new requests get. */
  current(): E;
  /** The current engine, held until `release`: a swap meanwhile never disposes it under the request. */
  lease(): EngineLease<E>;
  /**
   * Makes `next` current at once; the engine it replaces is disposed when its last lease is released
   * (at once when it has none), so requests in flight finish on the schema they started with and no
   * engine outlives its requests.
   */
  swap(next: E): void;
  /** How many engines are built and not yet disposed (the current one included). */
  alive(): number;
  /** Disposes the current engine and waits for those retired to be disposed (their requests to end). */
  close(): Promise<void>;
}

const CLOSE_WAIT_MS = 5000;

export interface EngineSlotOptions {
  /** Told when an engine fails to dispose (it is dropped all the same). */
  onDisposeError?: (error: unknown) => void;
  /** Told when an engine has been disposed: its memory is garbage from then on. */
  onReleased?: () => void;
}

/**
 * Holds the gateway's current engine and counts the requests on each engine, so that a schema swap
 * is one assignment for new requests while the old engine lives exactly as long as its requests.
 */
export function createEngineSlot<E extends Disposable>(first: E, { onDisposeError = () => undefined, onReleased }: EngineSlotOptions = {}): EngineSlot<E> {
  let current = first;
  const inFlight = new Map<E, number>([[first, 0]]);
  const retired = new Set<E>();
  // Disposals under way, each forgotten once done: a gateway swapping for months keeps none of them.
  const disposals = new Set<Promise<void>>();
  const dispose = (engine: E) => {
    inFlight.delete(engine);
    retired.delete(engine);
    const disposal = engine.dispose().then(onReleased, onDisposeError);
    disposals.add(disposal);
    disposal.finally(() => disposals.delete(disposal)).catch(() => undefined);
  };
  return {
    current: () => current,
    lease() {
      const engine = current;
      inFlight.set(engine, (inFlight.get(engine) ?? 0) + 1);
      let released = false;
      return {
        engine,
        release() {
          if (released) return;
          released = true;
          const left = (inFlight.get(engine) ?? 1) - 1;
          inFlight.set(engine, left);
          if (left === 0 && retired.has(engine)) dispose(engine);
        },
      };
    },
    swap(next) {
      const previous = current;
      current = next;
      inFlight.set(next, inFlight.get(next) ?? 0);
      if (previous === next) return;
      retired.add(previous);
      if ((inFlight.get(previous) ?? 0) === 0) dispose(previous);
    },
    alive: () => inFlight.size,
    async close() {
      dispose(current);
      // Retired engines go as their last requests end (the server stops taking new ones first), or
      // after a while anyway: a response whose body nobody reads would otherwise hold close forever.
      for (let waited = 0; retired.size > 0 && waited < CLOSE_WAIT_MS; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      for (const engine of [...retired]) dispose(engine);
      await Promise.all([...disposals]);
    },
  };
}

/** Media types whose body yoga streams after the response is returned (@defer/@stream increments, subscriptions). */
const STREAMED = /^(multipart\/mixed|text\/event-stream)/i;

/**
 * The response, with `release` called once it is sent: at once for an answer already whole, or when
 * a streamed body ends, fails or is cancelled, since its execution goes on while it streams.
 */
export function releasedWhenSent(response: Response, release: () => void): Response {
  if (!response.body || !STREAMED.test(response.headers.get('content-type') ?? '')) {
    release();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    async cancel(reason) {
      release();
      await reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
