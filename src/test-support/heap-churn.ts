// A child process for heap.test.ts: holds a live set, then keeps 8 "requests" of objects in flight
// (each kept until 8 later ones have started), as a server answering 8 clients does, and prints the
// largest V8 heap it saw. With the argument `near`, it first makes the host's heap setting.
import { keepHeapNearLiveSet } from '../core/host/heap';

if (process.argv[2] === 'near') keepHeapNearLiveSet();
async function main(): Promise<void> {
  const live = Array.from({ length: 400_000 }, (_, i) => ({ i, name: `live-${i}`, pair: [i, i + 1] }));
  const inFlight: unknown[][] = [];
  let peak = 0;
  for (let request = 0; request < 400; request++) {
    inFlight.push(
      Array.from({ length: 15_000 }, (_, i) => ({ request, i, text: `row ${request}-${i}`, v: [i] })),
    );
    if (inFlight.length > 8) inFlight.shift();
    peak = Math.max(peak, process.memoryUsage().heapTotal);
    if (request % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  process.stdout.write(`${JSON.stringify({ peakMb: peak / 2 ** 20, live: live.length })}\n`);
}

void main();
