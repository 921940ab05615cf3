// The settings table (key → text value): install-wide facts such as the demo seed, the server's URL,
// the report-signing secret, the desktop's API port and each workspace's white-label defaults. The
// only SQL on that table.
import { stmt } from '../store/statements';
import type { Db } from '../store/open';

export function readSetting(db: Db, key: string): string | undefined {
  const row = stmt(db, `SELECT value FROM settings WHERE key = ?`).get(key) as { value: string } | undefined;
  return row?.value;
}

/** Sets the value; null removes the key. */
export function writeSetting(db: Db, key: string, value: string | null): void {
  if (value === null) stmt(db, `DELETE FROM settings WHERE key = ?`).run(key);
  else
    stmt(
      db,
      `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    ).run(key, value);
}

/** The stored value, or `initial` stored first when the key has none (race-free under one writer). */
export function settingOrInit(db: Db, key: string, initial: () => string): string {
  stmt(db, `INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)`).run(key, initial());
  return readSetting(db, key) ?? '';
}
