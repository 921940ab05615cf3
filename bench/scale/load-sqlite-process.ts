// The SQLite load in a process of its own, so it runs beside the PostgreSQL load (better-sqlite3 holds
// its thread for the whole load): `load-sqlite-process.ts DATA_DIR SHAPE_JSON` logs progress on stderr
// and prints the loaded agency as one JSON line on stdout.
import type { AgencyShape } from './agency';
import { loadSqlite } from './load-sqlite';

async function main(): Promise<void> {
  const [dataDir, shapeJson] = process.argv.slice(2);
  if (!dataDir || !shapeJson) throw new Error('usage: load-sqlite-process.ts DATA_DIR SHAPE_JSON');
  const loaded = await loadSqlite(dataDir, JSON.parse(shapeJson) as AgencyShape, (line) =>
    process.stderr.write(`${line}\n`),
  );
  process.stdout.write(`${JSON.stringify(loaded)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
