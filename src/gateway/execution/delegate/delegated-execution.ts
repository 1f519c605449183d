// Works around two faults of @graphql-tools/delegate 12.3.3 (via @graphql-tools/stitch 10.3.1, @graphql-mesh/runtime 0.109.1) in prepareGatewayDocument,
// see left-out-selections.ts and shadowing-selections.ts for each; canary: test/gateway/delegation-faults.test.ts.
// Successor: both still present in 12.3.3, the newest release (npm latest, what Hive Gateway and @graphql-mesh/fusion-runtime delegate with); see each file.
import type { ExecutionArgs } from 'graphql';
import { isAsyncIterable, isPromise, mapAsyncIterator } from '@graphql-tools/utils';
import { withLeftOutSelectionsRemoved } from './left-out-selections.ts';
import { hasConditions } from '../shape/selection-plan.ts';
import { renamedShadowingSelections, withShadowingSelectionsRenamed } from './shadowing-selections.ts';

type Execute = (args: ExecutionArgs) => unknown;

/**
 * Mesh's execution (delegation to the sources) given a document it can delegate faithfully: without
 * the selections `@skip`/`@include` leave out (left-out-selections.ts), and with the client's
 * selections that would clash with the fields a link reads under the gateway's own aliases
 * (shadowing-selections.ts), the client's keys restored in what comes back, incremental parts
 * included. The client's own document is what every other step sees.
 */
export function delegatedExecution<TExecute extends Execute>(execute: TExecute): TExecute {
  return ((args: ExecutionArgs) => {
    const kept = withLeftOutSelectionsRemoved(args);
    const renamed = withShadowingSelectionsRenamed(kept);
    if (!renamed) return execute(kept);
    const restore = (result: unknown) => (isAsyncIterable(result) ? mapAsyncIterator(result, renamed.restore) : renamed.restore(result));
    const result = execute(renamed.args);
    return isPromise(result) ? result.then(restore) : restore(result);
  }) as TExecute;
}

/**
 * Whether Mesh's execution of these arguments needs delegatedExecution around it: a document with
 * `@skip`/`@include`, or with selections a link's aliases would shadow. The others are delegated as
 * they are.
 */
export function needsDelegatedExecution(args: Pick<ExecutionArgs, 'schema' | 'document'>): boolean {
  return hasConditions(args.document) || Boolean(renamedShadowingSelections(args.schema, args.document));
}
