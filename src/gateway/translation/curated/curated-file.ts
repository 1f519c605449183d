import { parseLanguageTag } from '../language-tags.ts';

/**
 * One curated translation file: a problem's title and statement translated by a person, in the
 * format README "Readers' languages" documents:
 *
 *     ---
 *     title: Suma de dos números
 *     source_sha256: 3a6eb0790f39ac87c94f3856b2dd2c5d110e6811602261a9a923d3bb23adc8b7
 *     source_language: en            (optional)
 *     made_at: 2026-03-01            (optional; else the file's modification time)
 *     ---
 *     The statement, Markdown, as the original is written.
 *
 * `source_sha256` is the SHA-256 (hex) of the original statement, as UTF-8 bytes, the translation
 * was made from: when the problem's statement no longer hashes to it, the translation is stale.
 */
export interface CuratedFile {
  title: string;
  statement: string;
  /** Lower-case hex SHA-256 of the original statement the translation was made from. */
  sourceSha256: string;
  /** The original's language, as the file says; undefined when it does not. */
  sourceLanguage?: string;
  /** When it was made (epoch ms), as the file says; undefined when it does not. */
  madeAt?: number;
}

/** Largest file read: a statement the service would take is far smaller. */
export const MAX_CURATED_FILE_BYTES = 1024 * 1024;

const KEYS = new Set(['title', 'source_sha256', 'source_language', 'made_at']);

/** The file's contents, or why it cannot be used (one line, for the log). */
export function parseCuratedFile(text: string): CuratedFile | { error: string } {
  const lines = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n');
  if (lines[0]?.trim() !== '---') return { error: 'it does not start with a front matter line "---"' };
  const end = lines.indexOf('---', 1);
  if (end < 0) return { error: 'its front matter has no closing line "---"' };
  const fields = new Map<string, string>();
  for (const [index, line] of lines.slice(1, end).entries()) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const colon = line.indexOf(':');
    const key = colon < 0 ? '' : line.slice(0, colon).trim();
    if (!KEYS.has(key)) return { error: `front matter line ${index + 2} is not one of ${[...KEYS].join(', ')} followed by ":"` };
    if (fields.has(key)) return { error: `front matter names "${key}" twice` };
    fields.set(key, unquoted(line.slice(colon + 1).trim()));
  }
  const title = fields.get('title') ?? '';
  if (!title) return { error: 'its front matter has no title' };
  const sourceSha256 = (fields.get('source_sha256') ?? '').toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(sourceSha256)) return { error: 'its front matter has no source_sha256 of 64 hex digits (the SHA-256 of the original statement)' };
  let madeAt: number | undefined;
  const made = fields.get('made_at');
  if (made) {
    madeAt = /^\d{4}-\d{2}-\d{2}/.test(made) ? Date.parse(made) : Number.NaN;
    if (!Number.isFinite(madeAt)) return { error: `made_at "${made.slice(0, 40)}" is not an ISO 8601 date` };
  }
  const statement = lines.slice(end + 1).join('\n').replace(/\n+$/, '');
  if (statement.trim() === '') return { error: 'it has no statement after its front matter' };
  const language = fields.get('source_language');
  const sourceLanguage = language ? parseLanguageTag(language)?.canonical : undefined;
  if (language && !sourceLanguage) return { error: `source_language "${language.slice(0, 40)}" is not a language tag such as "en"` };
  return { title, statement, sourceSha256, ...(sourceLanguage ? { sourceLanguage } : {}), ...(madeAt !== undefined ? { madeAt } : {}) };
}

/** A value written in double or single quotes (to keep a leading `#` or spaces), unquoted. */
function unquoted(value: string): string {
  if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0]) return value.slice(1, -1);
  return value;
}
