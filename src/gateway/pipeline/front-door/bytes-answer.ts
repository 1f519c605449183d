import { isUtf8 } from 'node:buffer';
import type { ResponseCache } from '../../execution/response-cache/response-cache.ts';
import type { GatewayRequest } from '../../request/gateway-request.ts';
import type { BatchAnswer } from './batch-answer.ts';
import type { DoorAnswer, DoorOutcome } from './door-request.ts';
import { paramsOfBody, paramsOfQueryString, type DoorParams } from './request-params.ts';
import type { RawRequest, SingleAnswer } from './single-answer.ts';

export interface BytesAnswerOptions {
  cache: ResponseCache;
  single: SingleAnswer;
  /** Batches on the straight path; without it, every batch is yoga's. */
  batch: BatchAnswer | undefined;
  /** The door's own failure (a 500 that says nothing of the cause). */
  failed: (gateway: GatewayRequest) => DoorAnswer;
}

/**
 * A request's bytes (a GET's query string, a POST's body) to what the door makes of them: the same
 * bytes as lately answered from the cache or kept in it answered again with no parsing, hashing or
 * promise (single-answer.ts `known`); else parsed and served as one operation or as a batch, or
 * yoga's when the door does not serve what they hold.
 */
export function bytesAnswer({ cache, single, batch, failed }: BytesAnswerOptions) {
  /** A GET: its query string's bytes answered as known, or its parameters served. */
  function ofQueryString(gateway: GatewayRequest, url: string, mediaType: string): DoorOutcome | Promise<DoorOutcome> {
    const query = url.indexOf('?');
    if (query < 0) return yogaOutcome(gateway);
    const search = url.slice(query + 1);
    const rawKey = rawKeyOf(gateway, 'GET', search);
    const known = rawKey === undefined ? undefined : single.known(gateway, rawKey, mediaType);
    if (known) return answeredOutcome(gateway, known);
    return ofParams(gateway, paramsOfQueryString(search), mediaType, { key: rawKey, length: search.length });
  }

  /** A POST's body, read whole: answered as known (never a batch: a batch is never remembered by its bytes), or parsed and served. */
  function ofBody(gateway: GatewayRequest, mediaType: string, body: Buffer): DoorOutcome | Promise<DoorOutcome> {
    const isBatch = startsArray(body);
    // Latin-1 maps each byte to one character: the bytes as they came, whatever they encode.
    const rawKey = !isBatch && body.length <= MAX_KNOWN_BODY_BYTES ? rawKeyOf(gateway, 'POST', body.toString('latin1')) : undefined;
    const known = rawKey === undefined ? undefined : single.known(gateway, rawKey, mediaType);
    if (known) return answeredOutcome(gateway, known);
    const parsed = isUtf8(body) ? paramsOfBody(body) : undefined;
    if (parsed?.batch) return batch ? settled(gateway, batch.answer(gateway, parsed.operations, mediaType), body) : yogaOutcome(gateway, body);
    return ofParams(gateway, parsed?.params, mediaType, { key: rawKey, length: body.length }, body);
  }

  /** The request's answer, or yoga's turn when the door does not serve its parameters (undefined) or its plan. */
  function ofParams(gateway: GatewayRequest, params: DoorParams | undefined, mediaType: string, raw: RawRequest, body?: Buffer): DoorOutcome | Promise<DoorOutcome> {
    if (!params) return yogaOutcome(gateway, body);
    return settled(gateway, single.answer(gateway, params, mediaType, raw), body);
  }

  /** The outcome of an answer on its way: given here, or (undefined) yoga's, with the body read. */
  function settled(gateway: GatewayRequest, answer: Promise<DoorAnswer | undefined>, body: Buffer | undefined): Promise<DoorOutcome> {
    return answer.then(
      (given) => (given ? answeredOutcome(gateway, given) : yogaOutcome(gateway, body)),
      () => answeredOutcome(gateway, failed(gateway)),
    );
  }

  /** The request's raw key (response-cache.ts), when the cache is on. */
  function rawKeyOf({ head, readerLanguages }: GatewayRequest, method: string, raw: string): string | undefined {
    return cache.enabled ? cache.rawKeyOf(head.headers.get('authorization'), method, raw, readerLanguages.key) : undefined;
  }

  return { ofQueryString, ofBody };
}

export type BytesAnswer = ReturnType<typeof bytesAnswer>;

/** The request for yoga to serve, with its body when the door read it. */
export function yogaOutcome(gateway: GatewayRequest, body?: Buffer): DoorOutcome {
  return { kind: 'yoga', gateway, body };
}

export function answeredOutcome(gateway: GatewayRequest, answer: DoorAnswer): DoorOutcome {
  return { kind: 'answer', gateway, answer };
}

/** Whether a JSON body is an array (a batch): its first byte that is not JSON whitespace is `[`. */
function startsArray(body: Buffer): boolean {
  for (let index = 0; index < body.length; index += 1) {
    const byte = body[index];
    if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return byte === 0x5b;
  }
  return false;
}

/**
 * The longest body looked up by its bytes (single-answer.ts `known`): every body is keyed by its
 * bytes for it, hit or miss, and a repeated query's body is a few hundred bytes; a larger one is
 * parsed and keyed as any.
 */
const MAX_KNOWN_BODY_BYTES = 64 * 1024;
