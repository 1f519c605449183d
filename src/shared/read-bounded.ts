/**
 * A web stream's bytes, read chunk by chunk and given up as soon as they pass `maxBytes`: the
 * transfer is cancelled and `tooLarge()` thrown, so a body of undeclared length never costs more
 * than the bound. One buffer of the exact length, whatever the chunks.
 */
export async function readBoundedBytes(body: ReadableStream<Uint8Array>, maxBytes: number, tooLarge: () => Error): Promise<Uint8Array<ArrayBuffer>> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
