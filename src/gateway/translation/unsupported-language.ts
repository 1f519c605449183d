import { ErrorCode, UpstreamError } from '../errors.ts';
import { targetsOf } from './language-tags.ts';
import type { Language } from './translation-client.ts';

/** The error for a language argument the translation service does not offer, naming the argument. */
export function unsupported(argument: string, code: string, offered: readonly string[], cause?: UpstreamError): UpstreamError {
  return new UpstreamError(
    `The translation service does not offer "${code}" for \`${argument}\`; it offers: ${[...offered].sort().join(', ')}.`,
    { code: ErrorCode.UnsupportedLanguage, service: 'translation', argument },
    cause,
  );
}

/** The error for a `to:` list none of whose languages is offered (nor curated, nor the original's). */
export function unsupportedAny(argument: string, given: readonly string[], offered: readonly string[]): UpstreamError {
  const named = given.map((code) => JSON.stringify(code)).join(', ');
  return new UpstreamError(
    `The translation service offers none of ${named} for \`${argument}\`; it offers: ${[...offered].sort().join(', ')}.`,
    { code: ErrorCode.UnsupportedLanguage, service: 'translation', argument },
  );
}

/**
 * The upstream's 400 body is not passed on (it may say anything, and the gateway never reads it);
 * when the request named a language the service does not offer, say so in the gateway's words,
 * naming the argument. Any other cause is narrowed down by the batcher (sizes, one text).
 */
export async function unsupportedIn(
  refusal: UpstreamError,
  options: { from: string | null; to: string },
  languages: () => Promise<Language[]>,
): Promise<UpstreamError | undefined> {
  const known = await languages().catch(() => undefined);
  if (!known) return undefined;
  const source = options.from ? known.find((language) => language.code === options.from) : undefined;
  if (options.from && !source) return unsupported('from', options.from, known.map((language) => language.code), refusal);
  const targets = targetsOf(known, source);
  if (!targets.includes(options.to)) return unsupported('to', options.to, targets, refusal);
  return undefined;
}
