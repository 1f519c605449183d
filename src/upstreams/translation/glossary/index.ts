import { de } from './de.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { it } from './it.ts';
import { pt } from './pt.ts';
import type { LanguageGlossary } from './types.ts';

export type { LanguageGlossary } from './types.ts';

/** Every bundled glossary, English → that language; the reverse direction is derived from each. */
export const GLOSSARIES: readonly LanguageGlossary[] = [de, es, fr, it, pt];
