import type { MeshPlugin } from '@graphql-mesh/types';
import type { ExecutionResult } from 'graphql';
import { readOperationLanguage, setOperationLanguage, withContextExtension } from './in-context.ts';

/**
 * `query @inContext(language: "es") { … }`: the readers' language of a whole operation (in-context.ts).
 * A Mesh plugin, so that every way an operation is executed has it: yoga's, and the front door's
 * delegated runs (execution/delegate/delegated-run.ts), which run Mesh's plugins. Per operation:
 * - the language is read with the operation's variables and put on its execution context, where the
 *   translation fields find it (language-choice.ts); a value that is no language tag is the whole
 *   answer, refused before any field runs;
 * - the answer's `extensions.context` says which language each kind of answer came in.
 * It never reaches the problems service, which does not declare it: an operation carrying a directive
 * is not one the service answers whole (forwardable-operation.ts), so it is delegated, and
 * delegation writes each upstream operation anew, with none of the client operation's directives
 * (graphql-tools' createRequest). A test asks the stand-in, which refuses unknown directives.
 */
export function useOperationLanguage(): MeshPlugin<object> {
  return {
    onExecute({ args, context, setResultAndStopExecution }) {
      const read = readOperationLanguage(args);
      if (!read) return undefined;
      if ('refusal' in read) {
        setResultAndStopExecution({ errors: [read.refusal] });
        return undefined;
      }
      const operationLanguage = setOperationLanguage(context, read.language);
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          setResult(withContextExtension(result as ExecutionResult, operationLanguage));
        },
      };
    },
  } as MeshPlugin<object>;
}
