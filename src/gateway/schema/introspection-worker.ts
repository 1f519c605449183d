/**
 * Entry of the worker thread that turns one large introspection answer into a schema's printing and
 * hash (introspection-thread.ts starts it, for one answer, and ends it).
 */
import { parentPort } from 'node:worker_threads';
import { outcomeOfAnswer, type AnswerBaseline, type IntrospectionAnswer } from './introspection-answer.ts';

const port = parentPort!;
port.once('message', ({ answer, baseline }: { answer: IntrospectionAnswer; baseline?: AnswerBaseline }) => {
  void outcomeOfAnswer(answer, baseline).then(
    (outcome) => port.postMessage(outcome),
    (error: unknown) => port.postMessage({ failure: 'invalid', message: `${answer.endpoint} answered an introspection that could not be read: ${(error as Error).message}` }),
  );
});
