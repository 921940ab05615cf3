// A text that changes whenever the store may have: caches (API keys, JSON answers) hold while it
// stays the same.
import type { Db } from './open';

/** A text that changes whenever the store does: this connection's writes, or another's commits. */
export function storeVersion(db: Db): () => string {
  const statement = db
    .prepare(`SELECT total_changes() || ':' || (SELECT data_version FROM pragma_data_version())`)
    .pluck();
  return () => statement.get() as string;
}

/**
 * A team server's processes cannot see each other's writes coming (PostgreSQL has no data_version
 * to read): a version that differs on every call (`Core.storeVersion` on a team server) turns the
 * response and key caches off, so each answer and each key is read from the database.
 */
export function neverSameVersion(): () => string {
  let n = 0;
  return () => String((n += 1));
}
