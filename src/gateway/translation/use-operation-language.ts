import type { MeshPlugin } from '@graphql-mesh/types';
import type { DocumentNode, ExecutionArgs, ExecutionResult } from 'graphql';
import { readOperationLanguage, setOperationLanguage, withContextExtension, withoutOperationLanguage } from './in-context.ts';

/**
 * `query @inContext(language: "es") { … }`: the readers' language of a whole operation (in-context.ts).
 * A Mesh plugin, so that every way an operation is executed has it: yoga's, and the front door's
 * delegated runs (execution/delegate/delegated-run.ts), which run Mesh's plugins. Per operation:
 * - the language is read with the operation's variables and put on its execution context, where the
 *   translation fields find it (language-choice.ts); a value that is no language tag is the whole
 *   answer, refused before any field runs;
 * - the directive is taken off the document executed, since the gateway applies it and an upstream
 *   that never declared it would refuse what is delegated to it. Taken off in the execute function,
 *   not in the arguments the other plugins read: a plan kept by the operation's text (the fast path's)
 *   must never be made from a document without it;
 * - the answer's `extensions.context` says which language each kind of answer came in.
 * Operations forwarded whole never carry it: a document with a directive on its operation is not one
 * the problems service answers alone (forwardable-operation.ts), so it reaches Mesh's execution.
 */
export function useOperationLanguage(): MeshPlugin<object> {
  return {
    onExecute({ args, context, executeFn, setExecuteFn, setResultAndStopExecution }) {
      const read = readOperationLanguage(args);
      if (!read) return undefined;
      if ('refusal' in read) {
        setResultAndStopExecution({ errors: [read.refusal] });
        return undefined;
      }
      const operationLanguage = setOperationLanguage(context, read.language);
      setExecuteFn(((executeArgs: ExecutionArgs) => executeFn({ ...executeArgs, document: withoutOperationLanguage(executeArgs.document as DocumentNode) })) as typeof executeFn);
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          setResult(withContextExtension(result as ExecutionResult, operationLanguage));
        },
      };
    },
  } as MeshPlugin<object>;
}
