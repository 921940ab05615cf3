// Is the key that seals platform tokens the one they were sealed with? A check value sealed with the
// key is kept in the store; a missing token.key (a new one was made) or a replaced one no longer
// opens it. Then every connection whose token cannot be opened is marked as needing
// re-authentication with the reason, instead of failing each sync with a cryptic error, and the
// check is re-sealed with the key now in use, so new connections work.
import type { Logger } from './core';
import type { TokenCipher } from './secrets';
import type { Db } from './store/open';
import { expireConnectionAtOpen } from './sync/accounts';

export const SEALING_CHECK_SETTING = 'token_key_check';
const CHECK_TEXT = 'adlens token key check v1';

export const KEY_CHANGED_REASON =
  'The key that protects stored access tokens (token.key, or the system keychain) is missing or was replaced, so this connection’s token can no longer be read. Reconnect the account with a new token.';

function opens(cipher: TokenCipher, sealed: Buffer, expected?: string): boolean {
  try {
    const plain = cipher.decrypt(sealed);
    return expected === undefined || plain === expected;
  } catch {
    return false;
  }
}

/** The check value sealed with `cipher` (stored once per install). */
export function sealingCheckValue(cipher: TokenCipher): string {
  return cipher.encrypt(CHECK_TEXT).toString('base64');
}

/** Whether `cipher` opens a stored check value: the key is the one the store was sealed with. */
export function sealsWith(cipher: TokenCipher, stored: string): boolean {
  return opens(cipher, Buffer.from(stored, 'base64'), CHECK_TEXT);
}

/** Returns the IDs of the connections marked as needing re-authentication (none when the key is right). */
export function checkSealingKey(db: Db, cipher: TokenCipher, now: Date, logger: Logger): string[] {
  // createCore opens SQLite synchronously, so this reads the check with a statement of its own (the
  // team server checks its key asynchronously: team-core.ts).
  const stored = (
    db.prepare(`SELECT value FROM settings WHERE key = ?`).get(SEALING_CHECK_SETTING) as
      { value: string } | undefined
  )?.value;
  if (stored && sealsWith(cipher, stored)) return [];
  const connections = db
    .prepare(`SELECT id, token_encrypted FROM platform_connections WHERE status = 'active'`)
    .all() as Array<{ id: string; token_encrypted: Buffer }>;
  const unreadable = connections.filter((c) => !opens(cipher, c.token_encrypted)).map((c) => c.id);
  db.transaction(() => {
    for (const id of unreadable) expireConnectionAtOpen(db, id, KEY_CHANGED_REASON, now.toISOString());
    db.prepare(
      `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    ).run(SEALING_CHECK_SETTING, sealingCheckValue(cipher));
  })();
  if (unreadable.length > 0) {
    logger.warn(`token key changed: ${unreadable.length} connection(s) need re-authentication`, {
      connections: unreadable,
    });
  }
  return unreadable;
}
