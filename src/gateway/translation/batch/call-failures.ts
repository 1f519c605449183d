import type { GraphQLError } from 'graphql';
import { ErrorCode, UpstreamError, createGraphQLErrorWithCode } from '../../errors.ts';
import { isUnusableAnswer } from '../translation-client.ts';
import type { CallCaps } from '../translation-limits.ts';
import { characters } from '../text-parts.ts';
import type { BatchFailure } from './batch-types.ts';
import type { Item, Root } from './items.ts';

/** How a call failed, and the errors the batcher answers with in the gateway's words. */

/** A call not made, because the request's calls already failed with `failure`. */
export class SkippedCall extends Error {
  readonly failure: BatchFailure;

  constructor(failure: BatchFailure) {
    super('skipped');
    this.failure = failure;
  }
}

/**
 * A failure one of the call's texts may have caused: a plain 500, LibreTranslate's answer when its
 * model raises on an input. (502, 503 and 504 come from what stands in front of the model; an
 * unusable 200 is the service's.)
 */
export function mayBeTheTexts(error: UpstreamError): boolean {
  return error.code === ErrorCode.UpstreamError && error.extensions.status === 500 && !isUnusableAnswer(error);
}

/** A refusal of the request's content (400, or 413 from a proxy in front): maybe too large, maybe one bad text. */
export function isRefusal(error: UpstreamError): boolean {
  return error.code === ErrorCode.UpstreamBadRequest && (error.extensions.status === 400 || error.extensions.status === 413);
}

export function clientGone(context: object): boolean {
  return Boolean((context as { request?: { signal?: AbortSignal } }).request?.signal?.aborted);
}

export function asUpstreamError(error: unknown): UpstreamError {
  return new UpstreamError('The gateway could not translate these texts.', { code: ErrorCode.UpstreamError, service: 'translation' }, error);
}

export function tooLong(root: Root, caps: CallCaps): GraphQLError {
  const limit = caps.refusedAbove;
  const source =
    caps.charsFrom === 'setting' && limit === caps.chars
      ? 'the most the gateway sends in one call (TRANSLATION_MAX_CHARS_PER_CALL)'
      : caps.charsFrom === 'published' && limit === caps.chars
        ? 'the character limit the translation service publishes'
        : 'the longest the translation service accepts, as its refusals show';
  return createGraphQLErrorWithCode(
    `A text of ${characters(root.text)} characters could not be translated: it has a sentence longer than ${limit} characters, ${source}, and the gateway cuts texts only at paragraph and sentence boundaries. Shorten it, or raise the service's limit.`,
    ErrorCode.TextTooLong,
    { service: 'translation', limit },
  );
}

export function knownNotTranslatable(text: string, ttlMs: number): GraphQLError {
  return createGraphQLErrorWithCode(
    `The translation service failed on this text of ${characters(text)} characters (HTTP 500) a moment ago while it translated others; the gateway does not send it again for up to ${Math.round(ttlMs / 1000)} s.`,
    ErrorCode.TextNotTranslatable,
    { service: 'translation', status: 500 },
  );
}

export function notTranslatable(item: Item, cause: UpstreamError, ttlMs: number): GraphQLError {
  return createGraphQLErrorWithCode(
    `The translation service failed on this text of ${item.chars} characters (HTTP 500) while it translates others; its answer is not passed on. The gateway does not send it again for ${Math.round(ttlMs / 1000)} s.`,
    ErrorCode.TextNotTranslatable,
    { service: 'translation', status: cause.extensions.status ?? 500 },
  );
}

export function refusedText(item: Item, cause: UpstreamError, maxTextLength: number | undefined): UpstreamError {
  return new UpstreamError(
    `The translation service refused a text of ${item.chars} characters (HTTP 400), although it offers these languages and accepted longer texts: it refuses this text's content, or its limits went down. Its answer is not passed on. The gateway sends texts of up to ${maxTextLength ?? 'any'} characters (TRANSLATION_MAX_TEXT_LENGTH): if the service limits one text to less, set it to that limit so longer texts are refused before any call.`,
    { code: ErrorCode.UpstreamBadRequest, service: 'translation', status: 400, ...(maxTextLength ? { limit: maxTextLength } : {}) },
    cause,
  );
}
