import type { GatewayOptions } from '../../src/gateway/create-gateway.ts';
import { startStack, type AddedGateway, type Stack } from './start-stack.ts';

/** The client key of the `keyed` profile. */
export const SHARED_CLIENT_KEY = 'shared-suite-client-key';

/**
 * The settings profiles a shared stack is built with. A file whose tests need other settings adds a
 * gateway of its own (`addGateway`, closed with the file) or starts a stack of its own.
 */
const PROFILES = {
  /** startStack's defaults: no client key, no response cache, no breaker, per-client limits lifted. */
  open: {},
  /** As `open`, with a client key required (SHARED_CLIENT_KEY). */
  keyed: { settings: { gatewayApiKeys: [SHARED_CLIENT_KEY] } },
} satisfies Record<string, GatewayOptions>;

export type SharedProfile = keyof typeof PROFILES;

const stacks = new Map<SharedProfile, Promise<Stack>>();

/**
 * Both stand-ins and a gateway in front of them, built once per worker and profile and shared by the
 * test files that run in that worker (vitest runs them one after another there, `isolate: false`
 * keeping this module): building a gateway costs seconds, a question to a built one milliseconds.
 *
 * For files whose tests ask questions and check answers (guards, negotiation, answers, clients) and
 * read upstream calls, if at all, as differences. What a file changes it puts back before it ends:
 * faults cleared, gateways it added closed (`close()` here closes those and leaves the shared ones
 * open). A file that needs cold caches or counts from zero starts a stack of its own (startStack).
 */
export async function sharedStack(profile: SharedProfile): Promise<Stack> {
  let shared = stacks.get(profile);
  if (!shared) {
    shared = startStack(PROFILES[profile]);
    stacks.set(profile, shared);
    // A failed start is not kept: the next file tries again.
    shared.catch(() => stacks.delete(profile));
  }
  const stack = await shared;
  const added: AddedGateway[] = [];
  return {
    ...stack,
    addGateway: async (options) => {
      const gateway = await stack.addGateway(options);
      added.push(gateway);
      return gateway;
    },
    close: async () => {
      for (const gateway of added.splice(0)) await gateway.close();
      stack.translation.clearFaults();
    },
  };
}
