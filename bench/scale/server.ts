// The server side of the scale bench, in its own process as `npm run serve` runs: the one host start
// over the generated store, on 127.0.0.1, without watching (the generated accounts have no real
// tokens) and with the response cache off so every answer is computed. The store is a data directory
// (startHost), or a postgres:// URL: then this is one process of a team server (startTeamHost, its key
// file from ADLENS_SECRET_KEY_FILE), and several of them may serve one database.
// Prints one JSON line with its URL; when stdin closes, prints its peak RSS (and the largest V8 heap and
// outside-heap memory it sampled, and the statements it ran with kept plans) and stops.
import { startHost } from '../../src/core/host/start';
import { startTeamHost } from '../../src/core/host/team';
import { keptStatements } from '../../src/core/store/pg/sql';

async function start(store: string): Promise<{ url: string; stop(): Promise<void> }> {
  if (/^postgres(ql)?:\/\//.test(store)) return startTeamHost({ databaseUrl: store, port: 0, watch: false });
  return startHost({
    dataDir: store,
    kind: 'headless',
    port: 0,
    provision: 'bare',
    watch: false,
    cacheResponses: false,
  });
}

async function main(): Promise<void> {
  const store = process.argv[2];
  if (!store) throw new Error('usage: server.ts DATA_DIR|postgres://…');
  const host = await start(store);
  // Where the peak RSS lives: the largest V8 heap and memory outside it (Buffers, the driver's), sampled.
  const peak = { heapTotalMb: 0, externalMb: 0, arrayBuffersMb: 0 };
  const sample = setInterval(() => {
    const m = process.memoryUsage();
    peak.heapTotalMb = Math.max(peak.heapTotalMb, m.heapTotal / 2 ** 20);
    peak.externalMb = Math.max(peak.externalMb, m.external / 2 ** 20);
    peak.arrayBuffersMb = Math.max(peak.arrayBuffersMb, m.arrayBuffers / 2 ** 20);
  }, 100);
  sample.unref();
  process.stdout.write(`${JSON.stringify({ url: host.url })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => {
    const maxRssMb = process.resourceUsage().maxRSS / 1024;
    process.stdout.write(`${JSON.stringify({ maxRssMb, ...peak, keptStatements: keptStatements() })}\n`);
    void host.stop().then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
