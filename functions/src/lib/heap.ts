// Each function's V8 heap limit (issue 58): the same share of its declared memory everywhere.
// Production: NODE_OPTIONS=--max-old-space-size-percentage=<HEAP_PERCENT> in functions/.env.<project-id>
// (firebase-tools gives one codebase's functions the same variables; the percentage is of each
// instance's own memory, so each function gets its share; the deploy checks it, deploy-checks.ts).
// Without it Node sizes the heap by its own rule, which does not follow the function's memory.
// The rehearsal and the bench boot each function with the same figure as --max-old-space-size,
// which any Node takes (the percentage flag is Node 22.21's; the local Node may be older).

/** The share of a function's memory its heap may use; the rest is Node's own, buffers and the runtime. */
export const HEAP_PERCENT = 75;

/** What production's NODE_OPTIONS holds (functions/.env.<project-id>). */
export const PRODUCTION_NODE_OPTIONS = `--max-old-space-size-percentage=${HEAP_PERCENT}`;

/** The heap limit, in MiB, of a function declared with `memoryMb`: what --max-old-space-size-percentage gives it. */
export function heapLimitMb(memoryMb: number): number {
  return Math.floor((memoryMb * HEAP_PERCENT) / 100);
}
