import type { TypePolicies } from '@apollo/client';

/**
 * What Apollo Client's `InMemoryCache` needs to know about the gateway's graph. The types the
 * gateway adds have no id: `Query.translation` is one `TranslationQuery` namespace object, and each
 * `Problem.translation(to:)` one `ProblemTranslation`. Apollo replaces an object without an id
 * whole when another query selects other fields of it, so `languages` then `translate` would evict
 * each other (a refetch each time, and "Cache data may be lost" in development). Both are singletons
 * where they sit, so merging their fields is always right; so is each translation's `provenance`.
 * A `translation` without `to:` is in the language the request's Accept-Language chose: an app that
 * lets its reader switch languages resets its cache (or passes `to:`) when they do.
 *
 *   new InMemoryCache({ typePolicies: { ...apolloTypePolicies, ...yourOwn } })
 *
 * Typed without importing Apollo, so apps not using it type-check this package all the same.
 */
export const apolloTypePolicies = {
  TranslationQuery: { merge: true },
  ProblemTranslation: { merge: true },
  // One per translation, where it sits: two queries asking different fields of it must not evict each other.
  TranslationProvenance: { merge: true },
} as const satisfies TypePolicies;
