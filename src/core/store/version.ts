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
