import type { Plugin } from 'graphql-yoga';
import { delegatedExecution, needsDelegatedExecution } from './delegate/delegated-execution.ts';
import type { SingleSourceFastPath } from './forward/single-source-fast-path.ts';

export interface ExecutionOptions {
  /** Forwarding of operations the problems service answers whole; absent when the fast path is off. */
  forwarding?: SingleSourceFastPath;
}

/**
 * How an operation that reaches yoga's execution runs (a response-cache hit never does): forwarded
 * whole to the problems service when it can answer it alone, else delegated by Mesh, with the
 * graphql-tools workarounds (delegate/) around Mesh's execution for the documents that need them.
 * The front door decides the same for the texts it plans (pipeline/document-planner.ts: the same
 * forwarding, and delegate/delegated-run.ts with the same workarounds), so a text runs alike
 * whichever door it came through.
 */
export function useExecution({ forwarding }: ExecutionOptions): Plugin {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const delegated = needsDelegatedExecution(args) ? delegatedExecution(executeFn) : executeFn;
      const forwarded = forwarding?.executeFor(args, delegated);
      if (forwarded) setExecuteFn(forwarded as typeof executeFn);
      else if (delegated !== executeFn) setExecuteFn(delegated);
    },
  };
}
