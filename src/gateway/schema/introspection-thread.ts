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
 * memory on an enormous schema) is a failed check, never a crash. The answer's bytes are handed to
 * the thread and back, never copied (a copy of megabytes is itself a long turn of the event loop):
 * read them from what this resolves to, since `answer.bytes` is emptied meanwhile (and stays empty
 * when the thread dies).
 */
export function outcomeOffLoop(answer: IntrospectionAnswer, baseline?: AnswerBaseline, bounds?: SchemaBounds): Promise<{ outcome: AnswerOutcome; bytes: Uint8Array }> {
  if (answer.bytes.byteLength <= ON_LOOP_MAX_BYTES) return outcomeOfAnswer(answer, baseline, bounds).then((outcome) => ({ outcome, bytes: answer.bytes }));
  return new Promise((resolve) => {
    const worker = spawnModuleWorker(new URL('./introspection-worker.ts', import.meta.url), import.meta.url);
    let settled = false;
    const settle = (outcome: AnswerOutcome, bytes: Uint8Array = new Uint8Array(0)) => {
      if (settled) return;
      settled = true;
      resolve({ outcome, bytes });
      void worker.terminate();
    };
    worker.once('message', ({ outcome, bytes }: { outcome: AnswerOutcome; bytes: Uint8Array }) => settle(outcome, bytes));
    worker.once('error', (error) => settle({ failure: 'invalid', message: `${answer.endpoint} answered an introspection that could not be read: ${error.message}` }));
    worker.once('exit', (code) => settle({ failure: 'invalid', message: `${answer.endpoint} answered an introspection that could not be read (its thread exited with ${code})` }));
    // Handed over whole (transferred, not copied) when the bytes fill their buffer, as read answers do.
    const whole = answer.bytes.byteOffset === 0 && answer.bytes.byteLength === answer.bytes.buffer.byteLength && answer.bytes.buffer instanceof ArrayBuffer;
    const bytes = whole ? answer.bytes : answer.bytes.slice();
    worker.postMessage({ answer: { ...answer, bytes }, baseline, bounds }, [bytes.buffer as ArrayBuffer]);
  });
}
