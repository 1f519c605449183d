import { spawnModuleWorker } from '../../shared/module-worker.ts';
import { outcomeOfAnswer, type AnswerBaseline, type AnswerOutcome, type IntrospectionAnswer } from './introspection-answer.ts';
import type { SchemaBounds } from './schema-size.ts';

/**
 * Answers up to this size are read on the event loop: a few milliseconds, less than a thread's start.
 * Larger ones (a schema of thousands of types or enum values takes seconds) go to a thread.
 */
export const ON_LOOP_MAX_BYTES = 256 * 1024;

/**
 * What an introspection answer makes (introspection-answer.ts), worked out where it never holds up
 * requests: on the event loop when it is small, else in a worker thread started for it and ended
 * after it, so a gateway whose schema never changes keeps no thread. A thread that dies (out of
 * memory on an enormous schema) is a failed check, never a crash.
 */
export function outcomeOffLoop(answer: IntrospectionAnswer, baseline?: AnswerBaseline, bounds?: SchemaBounds): Promise<AnswerOutcome> {
  if (answer.bytes.byteLength <= ON_LOOP_MAX_BYTES) return outcomeOfAnswer(answer, baseline, bounds);
  return new Promise((resolve) => {
    const worker = spawnModuleWorker(new URL('./introspection-worker.ts', import.meta.url), import.meta.url);
    let settled = false;
    const settle = (outcome: AnswerOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
      void worker.terminate();
    };
    worker.once('message', settle);
    worker.once('error', (error) => settle({ failure: 'invalid', message: `${answer.endpoint} answered an introspection that could not be read: ${error.message}` }));
    worker.once('exit', (code) => settle({ failure: 'invalid', message: `${answer.endpoint} answered an introspection that could not be read (its thread exited with ${code})` }));
    // A copy of its own, handed over whole: the thread reads it without a second copy.
    const bytes = answer.bytes.slice();
    worker.postMessage({ answer: { ...answer, bytes }, baseline, bounds }, [bytes.buffer]);
  });
}
