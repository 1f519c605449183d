/** Shortest stretch of an encoded secret worth cutting out: below it, ordinary text would match. */
const MIN_FORM_LENGTH = 6;

/**
 * The forms a secret takes when a service quotes it back encoded: as it is, URL-encoded, and in
 * base64 (standard and URL-safe). In base64 a secret inside a longer text (`user:<key>` of a Basic
 * header, a JSON blob) encodes differently with each of its three possible offsets, and the
 * characters at its ends mix with its neighbours': each offset gives the stretch made of the
 * secret's bytes alone, which is what is cut. What is left of an encoded secret is then at most a
 * character or two at each end, never enough to read it.
 */
export function secretForms(secret: string): string[] {
  const forms = new Set([secret, encodeURIComponent(secret)]);
  const bytes = Buffer.from(secret, 'utf8');
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    // Characters carry 6 bits: those wholly inside the secret's bits, from 8 × offset to its end.
    const stretch = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    if (stretch.length < MIN_FORM_LENGTH) continue;
    forms.add(stretch);
    forms.add(stretch.replaceAll('+', '-').replaceAll('/', '_'));
  }
  // Longest first: a shorter form inside a longer one must not cut it in two first.
  return [...forms].filter((form) => form.length > 0).sort((a, b) => b.length - a.length);
}
