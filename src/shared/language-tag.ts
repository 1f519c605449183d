/** BCP 47 language tags read for their syntax alone: the settings and the translation feature both read them. */
export interface LanguageTag {
  /** The tag in BCP 47's usual case: `pt-BR`, `zh-Hant`, `es-419`. */
  canonical: string;
  /** Primary language subtag, lowercase (an extended language subtag, such as `yue` in `zh-yue`, takes its place). */
  language: string;
  /** Script subtag, title case (`Hant`), when the tag has one. */
  script?: string;
  /** Region subtag, upper case or three digits (`BR`, `419`), when the tag has one. */
  region?: string;
}

/** The longest tag BCP 47 asks implementations to handle; nothing longer names a language people use. */
export const MAX_TAG_LENGTH = 35;
/** A language of 2–3 letters (ISO 639), then subtags of 1–8 letters or digits. */
const TAG_SHAPE = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/;

/**
 * The tag in `value` in BCP 47's usual case, or undefined when it is not shaped like one. Syntax
 * only: which languages a service offers is the translation feature's to say.
 */
export function readLanguageTag(value: string): LanguageTag | undefined {
  if (value.length > MAX_TAG_LENGTH || !TAG_SHAPE.test(value)) return undefined;
  const [first, ...rest] = value.split(/[-_]/);
  let language = first.toLowerCase();
  const subtags = [language];
  let index = 0;
  // BCP 47's order: language, extended language (3 letters), script (4 letters), region (2 letters
  // or 3 digits), then variants and extensions, which no translation service tells apart.
  if (/^[A-Za-z]{3}$/.test(rest[index] ?? '')) {
    language = rest[index].toLowerCase();
    subtags.push(language);
    index += 1;
  }
  let script: string | undefined;
  if (/^[A-Za-z]{4}$/.test(rest[index] ?? '')) {
    script = rest[index][0].toUpperCase() + rest[index].slice(1).toLowerCase();
    subtags.push(script);
    index += 1;
  }
  let region: string | undefined;
  if (/^(?:[A-Za-z]{2}|\d{3})$/.test(rest[index] ?? '')) {
    region = rest[index].toUpperCase();
    subtags.push(region);
    index += 1;
  }
  subtags.push(...rest.slice(index).map((subtag) => subtag.toLowerCase()));
  return { canonical: subtags.join('-'), language, ...(script ? { script } : {}), ...(region ? { region } : {}) };
}
