// Loaded into every process the bench starts (`node --import …/allocation-probe.mjs`): on SIGUSR2 it
// writes one line, `allocation-probe: <bytes>`, the bytes V8 has allocated on its heap since the
// process started. V8 keeps no such running total, so it is made of two counters V8 does keep: the
// heap in use now, plus every byte a collection has freed (each collection's used size before it less
// after it, from v8.GCProfiler, restarted at each reading so its records never pile up). Plain
// JavaScript, so the compiled gateway (plain `node`) loads it as the tsx one does.
import { GCProfiler, getHeapStatistics } from 'node:v8';

const profiler = new GCProfiler();
const startedWith = getHeapStatistics().used_heap_size;
let freed = 0;
profiler.start();
process.on('SIGUSR2', () => {
  const { statistics } = profiler.stop();
  profiler.start();
  for (const collection of statistics) freed += collection.beforeGC.heapStatistics.usedHeapSize - collection.afterGC.heapStatistics.usedHeapSize;
  process.stdout.write(`allocation-probe: ${getHeapStatistics().used_heap_size - startedWith + freed}\n`);
});
