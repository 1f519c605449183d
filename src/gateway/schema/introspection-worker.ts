/**
 * Entry of the worker thread that turns one large introspection answer into a schema's printing, hash
 * and size (introspection-thread.ts starts it, for one answer, and ends it).
 */
import { parentPort } from 'node:worker_threads';
import { outcomeOfAnswer, type AnswerBaseline, type AnswerOutcome, type IntrospectionAnswer } from './introspection-answer.ts';
import type { SchemaBounds } from './schema-size.ts';

const port = parentPort!;
port.once('message', ({ answer, baseline, bounds }: { answer: IntrospectionAnswer; baseline?: AnswerBaseline; bounds?: SchemaBounds }) => {
  // The bytes go back as they came (transferred): the caller keeps them to compare the next answer with.
  const reply = (outcome: AnswerOutcome) => port.postMessage({ outcome, bytes: answer.bytes }, [answer.bytes.buffer as ArrayBuffer]);
  void outcomeOfAnswer(answer, baseline, bounds).then(reply, (error: unknown) =>
    reply({ failure: 'invalid', message: `${answer.endpoint} answered an introspection that could not be read: ${(error as Error).message}` }),
  );
});
