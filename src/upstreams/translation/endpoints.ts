import { fail, invalid, shown, type Reply } from './replies.ts';
import type { ResolvedTranslationServiceOptions } from './service-options.ts';
import type { TranslationServiceStats } from './service-stats.ts';
import type { TextFormat, Translator } from './translator.ts';

/** What the routes answer from: the options in force, the glossary translator and the counters. */
export interface Endpoints {
  options: ResolvedTranslationServiceOptions;
  translator: Translator;
  stats: TranslationServiceStats;
}

/** POST /translate: the request checked as LibreTranslate checks it (limits before languages), then each text translated. */
export function translate(body: Record<string, unknown>, { options, translator, stats }: Endpoints): Reply {
  const refused = translateRequestProblem(body, options, translator);
  if (refused) return refused;
  const { q, source, target, format = 'text' } = body as { q: string | string[]; source: string; target: string; format?: TextFormat };
  const texts: string[] = Array.isArray(q) ? q : [q];
  const raising = texts.find((text) => options.untranslatable.some((input) => input !== '' && text.includes(input)));
  if (raising !== undefined) {
    stats.cannotTranslate++;
    // LibreTranslate's words: `abort(500, description=_("Cannot translate text: %(text)s", text=str(e)))`.
    return fail(500, `Cannot translate text: the model failed on an input of ${characters(raising)} characters`);
  }
  const detections = source === 'auto' ? texts.map((text) => translator.detect(text, format)[0]) : undefined;
  const translated = texts.map((text, index) => translator.translate(text, detections?.[index].language ?? source, target, format));
  const result: Record<string, unknown> = { translatedText: Array.isArray(q) ? translated : translated[0] };
  if (detections) result.detectedLanguage = Array.isArray(q) ? detections : detections[0];
  return { status: 200, body: result };
}

/** The 400 a POST /translate body gets, in LibreTranslate's order and words; none when it can be translated. */
function translateRequestProblem(body: Record<string, unknown>, options: ResolvedTranslationServiceOptions, translator: Translator): Reply | undefined {
  const { q, source, target, format = 'text' } = body;
  if (q === undefined || q === null || q === '') return invalid('missing q parameter');
  if (typeof q !== 'string' && !(Array.isArray(q) && q.every((text) => typeof text === 'string'))) {
    return invalid('q must be a string or an array of strings');
  }
  if (Array.isArray(q) && q.length === 0) return invalid('q must not be an empty array');
  if (Array.isArray(q) && q.length > options.maxBatchSize) {
    return invalid(`q has ${q.length} texts, over the batch limit of ${options.maxBatchSize} texts per request`);
  }
  // LibreTranslate checks its limits before the languages, with one message for both.
  if (Array.isArray(q) && options.batchLimit !== undefined && q.length > options.batchLimit) {
    return invalid(`request (${q.length}) exceeds text limit (${options.batchLimit})`);
  }
  if (options.charLimit !== undefined) {
    const chars = (Array.isArray(q) ? q : [q]).reduce((sum, text) => sum + characters(text), 0);
    if (chars > options.charLimit) return invalid(`request (${chars}) exceeds text limit (${options.charLimit})`);
  }
  if (source === undefined || source === null || source === '') return invalid('missing source parameter');
  if (target === undefined || target === null || target === '') return invalid('missing target parameter');
  if (typeof source !== 'string') return invalid('source must be a language code string');
  if (typeof target !== 'string') return invalid('target must be a language code string');
  if (source !== 'auto' && !translator.supports(source)) return invalid(`source language ${shown(source)} is not supported`);
  if (!translator.supports(target)) return invalid(`target language ${shown(target)} is not supported`);
  if (format !== 'text' && format !== 'html') return invalid(`format must be "text" or "html", got ${shown(format)}`);
  const texts: string[] = Array.isArray(q) ? q : [q];
  for (const [index, text] of texts.entries()) {
    const length = characters(text);
    if (length > options.maxTextLength) {
      const which = Array.isArray(q) ? `q[${index}]` : 'q';
      return invalid(`${which} has ${length} characters, over the text limit of ${options.maxTextLength} characters`);
    }
  }
  return undefined;
}

/** POST /detect: one text, scored against each language's vocabulary. */
export function detect(body: Record<string, unknown>, { options, translator }: Endpoints): Reply {
  const { q } = body;
  if (q === undefined || q === null || q === '') return invalid('missing q parameter');
  if (typeof q !== 'string') return invalid('q must be a string');
  const length = characters(q);
  if (options.charLimit !== undefined && length > options.charLimit) return invalid(`request (${length}) exceeds text limit (${options.charLimit})`);
  if (length > options.maxTextLength) return invalid(`q has ${length} characters, over the text limit of ${options.maxTextLength} characters`);
  return { status: 200, body: translator.detect(q) };
}

/** LibreTranslate's answer (its fields, -1 for no limit); it publishes no batch limit. */
export function frontendSettings({ options }: Pick<Endpoints, 'options'>): Record<string, unknown> {
  return {
    charLimit: options.charLimit ?? -1,
    frontendTimeout: 500,
    apiKeys: options.apiKey !== undefined,
    keyRequired: options.apiKey !== undefined,
    suggestions: false,
    filesTranslation: false,
    supportedFilesFormat: [],
    language: { source: { code: 'auto', name: 'Auto Detect' }, target: { code: 'es', name: 'Spanish' } },
  };
}

/** Length in characters (code points), as LibreTranslate counts it. */
export function characters(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) count--;
  }
  return count;
}
