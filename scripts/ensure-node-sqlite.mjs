// `npm start` rebuilds better-sqlite3 for Electron's ABI; plain-Node commands (tests, serve, cli,
// bench) need the Node build. This puts the Node build back when, and only when, it does not load.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
try {
  const Database = require('better-sqlite3');
  new Database(':memory:').close();
} catch (error) {
  if (
    !/NODE_MODULE_VERSION|was compiled against a different Node\.js version|invalid ELF|Could not locate the bindings/.test(
      String(error),
    )
  ) {
    throw error;
  }
  console.error('better-sqlite3 is built for Electron; rebuilding it for Node (about a minute)…');
  const result = spawnSync('npm', ['rebuild', 'better-sqlite3'], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
