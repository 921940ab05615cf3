// How far V8 lets a host's heap grow past what it holds. V8 picks the growth factor after each full
// collection from how fast it collects, up to 4× the live set on a fast machine: right for a page that
// lives a minute, wrong for a server that runs for weeks. At agency scale (500 accounts, 8 clients
// reading the portfolio at once) the serve process holds about 50 MB after a collection but let its
// heap reach 200 MB, and its RSS 430 MB; at 1.5× it peaks near 110 MB, with the same read times
// (docs/scale.md). V8 reads the factor at every collection, so setting it once a process is running
// takes effect; it applies to the whole process, worker threads included.
import { setFlagsFromString } from 'node:v8';

/** The heap may grow to this many percent above the live set after each full collection. */
export const HEAP_GROWING_PERCENT = 50;

/** Called once by every host start (serve, a team server's process, the desktop's main process). */
export function keepHeapNearLiveSet(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
