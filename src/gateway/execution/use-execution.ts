import type { Plugin } from 'graphql-yoga';
import { delegatedExecution, needsDelegatedExecution } from './delegate/delegated-execution.ts';
import type { SingleSourceFastPath } from './forward/single-source-fast-path.ts';

export interface ExecutionOptions {
  /** Forwarding of operations the problems service answers whole; absent when the fast path is off. */
  forwarding?: SingleSourceFastPath;
}

/**
 * The one place that decides how an operation that reaches execution runs (a response-cache hit
 * never does): forwarded whole to the problems service when it can answer it alone, else delegated
 * by Mesh, with the graphql-tools workarounds (delegate/) around Mesh's execution for the documents
 * that need them. The node:http adapter's direct lane forwards only texts this decision has already
 * forwarded once.
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
