/**
 * Entry of the worker thread that does the statements' Markdown work (statement-thread.ts starts it):
 * one task at a time, one outcome per task, in order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { StatementLimits } from './statement-limits.ts';
import { createStatementWork, type StatementTask } from './statement-work.ts';

const port = parentPort!;
const run = createStatementWork((workerData as { limits: StatementLimits }).limits);
port.on('message', (task: StatementTask) => port.postMessage(run(task)));
port.postMessage('ready');
