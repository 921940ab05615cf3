// The settings table (key → text value): install-wide facts such as the demo seed, the server's URL,
// the report-signing secret, the desktop's API port and each workspace's white-label defaults. The
// only SQL on that table, behind the store boundary (either engine).
import type { Sql } from '../store/sql';

export async function readSetting(sql: Sql, key: string): Promise<string | undefined> {
  const row = await sql.get<{ value: string }>(`SELECT value FROM settings WHERE key = ?`, [key]);
  return row?.value;
}

/** Sets the value; null removes the key. */
export async function writeSetting(sql: Sql, key: string, value: string | null): Promise<void> {
  if (value === null) await sql.run(`DELETE FROM settings WHERE key = ?`, [key]);
  else
    await sql.run(
      `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      [key, value],
    );
}

/** The stored value, or `initial` stored first when the key has none (the first writer's value wins). */
export async function settingOrInit(sql: Sql, key: string, initial: () => string): Promise<string> {
  await sql.run(`INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`, [
    key,
    initial(),
  ]);
  return (await readSetting(sql, key)) ?? '';
}
