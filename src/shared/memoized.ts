/**
 * `derive` memoized by its text argument, for texts that repeat from request to request (a client's
 * `Accept` header, an upstream's URL): deriving again cost more than a Map lookup. Holds at most
 * `maxEntries` texts of at most `maxLength` characters each (a longer one is derived every time),
 * and starts over when full, so texts that never repeat cost a derivation each and cannot grow it.
 * `derive` must be pure.
 */
export function memoized<T>(derive: (text: string) => T, { maxEntries = 256, maxLength = 1024 } = {}): (text: string) => T {
  const known = new Map<string, T>();
  return (text) => {
    // `has` as well as `get`: undefined is a result like any other.
    const found = known.get(text);
    if (found !== undefined || known.has(text)) return found as T;
    const derived = derive(text);
    if (text.length <= maxLength) {
      if (known.size >= maxEntries) known.clear();
      known.set(text, derived);
    }
    return derived;
  };
}
