import { Readable } from 'node:stream';
import { destroyQuietly, readStream } from '../../shared/read-stream.ts';

/** A body as it arrives: undici's Node stream, a decoder's, or a web ReadableStream (all async iterables). */
type StreamedBody = AsyncIterable<Uint8Array> & {
  destroy?(error?: Error): void;
  cancel?(reason?: unknown): Promise<void>;
  on?(event: 'error', listener: () => void): unknown;
};

/** Stops a body's transfer (a Node stream quietly: see destroyQuietly). */
async function stop(body: StreamedBody, error?: Error): Promise<void> {
  if (body.destroy) destroyQuietly(body as Parameters<typeof destroyQuietly>[0], error);
  else await body.cancel?.(error).catch(() => undefined);
}

export interface UpstreamAnswerInit {
  status: number;
  statusText?: string;
  /** Header names lowercased; a header sent several times is several entries. */
  headers: [string, string][];
  /** The body still to read, the text already read, or none. */
  body: StreamedBody | string | null;
}

/**
 * An upstream's answer as the upstream steps pass it along: status, headers and a body read at most
 * once, whole. Not a web Response: building one and reading it through web streams, three times per
 * call (the fetch, the error step, the problems cache), cost about a fifth of a forwarded query's CPU.
 * A Response is made once, where Mesh's handlers take the answer (toResponse).
 */
export class UpstreamAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly headers: readonly [string, string][];
  #body: StreamedBody | null;
  #text: Promise<string> | undefined;
  /** The text once read, for a reader that needs the bytes as they came without another await. */
  #textRead: string | undefined;
  /** The body parsed, once parsedJson has parsed it (`PARSE_FAILED` when it is not JSON). */
  #parsed: unknown = NOT_PARSED;
  /** Most bytes the body may have, and the error for one that has more (answer-size-limit.ts). */
  #limit: { maxBytes: number; tooLarge: () => Error } | undefined;
  /** Called once the body is read, dropped or failed (afterBody); undefined once that has happened. */
  #afterBody: (() => void)[] | undefined = [];

  constructor({ status, statusText = '', headers, body }: UpstreamAnswerInit) {
    this.status = status;
    this.statusText = statusText;
    this.headers = headers;
    this.#body = typeof body === 'string' ? null : body;
    this.#text = typeof body === 'string' ? Promise.resolve(body) : undefined;
    this.#textRead = typeof body === 'string' ? body : undefined;
    if (typeof body === 'string' || body === null) this.#afterBody = undefined;
  }

  /** Any answer fetch gave (a fetch wrapped by a plugin of .meshrc.yaml), its body still unread. */
  static fromResponse(response: Response): UpstreamAnswer {
    return new UpstreamAnswer({
      status: response.status,
      statusText: response.statusText,
      headers: [...response.headers],
      body: response.body as unknown as StreamedBody | null,
    });
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  /** The value of header `name` (any case); several values joined by `, `, as fetch's Headers does. */
  header(name: string): string | undefined {
    const lower = name.toLowerCase();
    let value: string | undefined;
    for (const [each, text] of this.headers) if (each === lower) value = value === undefined ? text : `${value}, ${text}`;
    return value;
  }

  /** The body as UTF-8 text, read once (later calls get the same text); fails as the reading does. */
  text(): Promise<string> {
    this.#text ??= this.#read().then(
      (text) => {
        this.#textRead = text;
        this.#bodyDone();
        return text;
      },
      (error: unknown) => {
        this.#bodyDone();
        throw error;
      },
    );
    return this.#text;
  }

  /** The body's text if it has been read (text() has settled), else undefined. */
  get textRead(): string | undefined {
    return this.#textRead;
  }

  /**
   * Calls `callback` once the body has been read, dropped or has failed (at once if it has): the
   * retries step keeps the call's time budget armed until then, so a body that stalls times out too.
   */
  afterBody(callback: () => void): this {
    if (this.#afterBody) this.#afterBody.push(callback);
    else callback();
    return this;
  }

  #bodyDone(): void {
    const callbacks = this.#afterBody ?? [];
    this.#afterBody = undefined;
    for (const callback of callbacks) callback();
  }

  /**
   * The body parsed as JSON, once (the error step checks it is JSON, the fast path reads it): later
   * calls get the same value, which callers must not change.
   */
  json(): Promise<unknown> {
    if (this.#textRead !== undefined) {
      try {
        return Promise.resolve(this.parsedJson());
      } catch (error) {
        return Promise.reject(error as Error);
      }
    }
    return this.text().then(() => this.parsedJson());
  }

  /**
   * The body read already (textRead) parsed as JSON, once, without waiting: what json() gives.
   * Throws when the text is not JSON, or not read yet.
   */
  parsedJson(): unknown {
    if (this.#parsed === NOT_PARSED) {
      if (this.#textRead === undefined) throw new Error('The answer\'s body has not been read.');
      try {
        this.#parsed = JSON.parse(this.#textRead) as unknown;
      } catch (error) {
        this.#parsed = new ParseFailure(error);
      }
    }
    if (this.#parsed instanceof ParseFailure) throw this.#parsed.error;
    return this.#parsed;
  }

  /** Reads and drops the body, so the keep-alive connection can be reused; never fails. */
  async discard(): Promise<void> {
    await this.text().catch(() => undefined);
  }

  /** Drops the body unread: the transfer stops and its connection closes (for an answer too large to read). */
  async cancel(): Promise<void> {
    const body = this.#body;
    this.#body = null;
    this.#text ??= Promise.resolve('');
    if (body) await stop(body);
    this.#bodyDone();
  }

  /** The same answer with its body bounded: reading more than `maxBytes` fails with `tooLarge()` and stops the transfer. */
  limitedTo(maxBytes: number, tooLarge: () => Error): UpstreamAnswer {
    const bounded = new UpstreamAnswer({ status: this.status, statusText: this.statusText, headers: [...this.headers], body: this.#body });
    bounded.#text = this.#text;
    bounded.#textRead = this.#textRead;
    bounded.#limit = { maxBytes, tooLarge };
    // The body is the bounded answer's to read now, and so are the callbacks waiting for it.
    bounded.#afterBody = this.#afterBody;
    this.#afterBody = undefined;
    this.#body = null;
    return bounded;
  }

  /** The same status with another text (and headers), and that text's JSON value when the caller has it. */
  withText(text: string, headers: [string, string][] = [...this.headers], parsed: unknown = NOT_PARSED): UpstreamAnswer {
    const answer = new UpstreamAnswer({ status: this.status, statusText: this.statusText, headers, body: text });
    answer.#parsed = parsed;
    return answer;
  }

  /**
   * A web Response of this answer, for Mesh's handlers, its body read whole first (within the size
   * bound): at once when it has been read (the error step reads every answer), else once it is.
   */
  toResponse(): Response | Promise<Response> {
    const init = { status: this.status, statusText: this.statusText, headers: this.headers as [string, string][] };
    if (this.#textRead !== undefined) return new Response(this.#textRead, init);
    if (this.#text === undefined && this.#body === null) return new Response(null, init);
    return this.text().then((text) => new Response(text, init));
  }

  #read(): Promise<string> {
    const body = this.#body;
    this.#body = null;
    if (!body) return Promise.resolve('');
    if (body instanceof Readable) {
      const chunks: Uint8Array[] = [];
      let received = 0;
      const limit = this.#limit;
      return readStream(body, (chunk) => {
        received += chunk.byteLength;
        if (limit && received > limit.maxBytes) return limit.tooLarge();
        chunks.push(chunk);
        return undefined;
      }).then(() => textOf(chunks));
    }
    return this.#readIterable(body);
  }

  /** A body that is no Node stream (a web ReadableStream, from a fetch wrapped by a plugin), read by iteration. */
  async #readIterable(body: StreamedBody): Promise<string> {
    const chunks: Uint8Array[] = [];
    let received = 0;
    const limit = this.#limit;
    for await (const chunk of body) {
      received += chunk.byteLength;
      if (limit && received > limit.maxBytes) {
        const error = limit.tooLarge();
        // Stops the transfer: the connection closes rather than carry the rest.
        await stop(body, error);
        throw error;
      }
      chunks.push(chunk);
    }
    return textOf(chunks);
  }
}

/** Where parsedJson has not parsed yet. */
const NOT_PARSED = Symbol('not parsed');

/** A body that is not JSON, kept so a second parsedJson fails alike without parsing again. */
class ParseFailure {
  readonly error: unknown;
  constructor(error: unknown) {
    this.error = error;
  }
}

/** The chunks of a body as UTF-8 text. */
function textOf(chunks: Uint8Array[]): string {
  if (chunks.length === 1) return Buffer.from(chunks[0].buffer, chunks[0].byteOffset, chunks[0].byteLength).toString('utf8');
  return Buffer.concat(chunks).toString('utf8');
}
