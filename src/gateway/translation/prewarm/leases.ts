/**
 * Short-lived exclusive claims on a piece of background work, so that several replicas sharing one
 * store never do the same work at once: whoever holds a name's lease does it, the others leave it.
 * A lease lapses by itself after its TTL, so work held by a replica that died is taken over.
 */
export interface Leases {
  /**
   * Takes `name` for `owner` for `ttlMs`, or extends it when `owner` holds it already. Resolves
   * false when another owner holds it; rejects when the store cannot tell (the caller then leaves
   * the work, rather than risk doing it twice).
   */
  acquire(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Gives `name` up, if `owner` still holds it (a lease taken over by another is left alone). */
  release(name: string, owner: string): Promise<void>;
}

/** Leases within this process (no shared store): one gateway's own work is never repeated anyway. */
export function createMemoryLeases(now: () => number = Date.now): Leases {
  const held = new Map<string, { owner: string; until: number }>();
  return {
    async acquire(name, owner, ttlMs) {
      const lease = held.get(name);
      if (lease && lease.owner !== owner && lease.until > now()) return false;
      held.set(name, { owner, until: now() + ttlMs });
      return true;
    },
    async release(name, owner) {
      if (held.get(name)?.owner === owner) held.delete(name);
    },
  };
}
