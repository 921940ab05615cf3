// Reuses the JSON of pure-read routes while the store is unchanged. The key holds the workspace and
// mode of the key, the exact URL, the store's version (this connection's total_changes() and
// data_version, which moves when another connection commits) and the current minute (windows such
// as "last 7 days" move with the clock). Authentication, rate limits and meta are never cached.
import type { Clock } from '../clock';
import type { Db } from '../store/open';

const MAX_ENTRIES = 500;

/** A text that changes whenever the store does: this connection's writes, or another's commits. */
export function storeVersion(db: Db): () => string {
  const statement = db
    .prepare(`SELECT total_changes() || ':' || (SELECT data_version FROM pragma_data_version())`)
    .pluck();
  return () => statement.get() as string;
}

/**
 * A team server's processes cannot see each other's writes coming (PostgreSQL has no data_version
 * to read): a version that differs on every call turns both caches off, so each answer and each
 * key lookup reads the database.
 */
export function neverSameVersion(): () => string {
  let n = 0;
  return () => String((n += 1));
}

export class ResponseCache {
  private readonly entries = new Map<string, Buffer>();

  constructor(
    private readonly version: () => string,
    private readonly clock: Clock,
  ) {}

  key(scope: string, url: string): string {
    return `${scope}|${url}|${this.version()}|${Math.floor(this.clock.now().getTime() / 60_000)}`;
  }

  /** The cached body without its closing brace, ready for `,"meta":{…}}`. */
  get(key: string): Buffer | undefined {
    return this.entries.get(key);
  }

  set(key: string, fragment: Buffer): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, fragment);
  }
}
