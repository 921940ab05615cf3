// The server side of the scale bench, in its own process as `npm run serve` runs: the one host start
// (startHost) over the generated data directory, on 127.0.0.1, without watching (the generated
// accounts have no real tokens) and with the response cache off so every answer is computed.
// Prints one JSON line with its URL; when stdin closes, prints its peak RSS and stops.
import { startHost } from '../../src/core/host/start';

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: server.ts DATA_DIR');
  const host = await startHost({
    dataDir,
    kind: 'headless',
    port: 0,
    provision: 'bare',
    watch: false,
    cacheResponses: false,
  });
  process.stdout.write(`${JSON.stringify({ url: host.url })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => {
    const maxRssMb = process.resourceUsage().maxRSS / 1024;
    process.stdout.write(`${JSON.stringify({ maxRssMb })}\n`);
    void host.stop().then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
