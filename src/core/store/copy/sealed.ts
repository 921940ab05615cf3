// Every secret the store keeps sealed with the token cipher, in one list: platform tokens, webhook
// signing secrets, the SMTP password, the Meta app secret and the key check value. A copy between
// installs opens each with the source's key and seals it again with the target's; the checksums
// compare them opened, since two sealings of one secret never have the same bytes.
import { smtpKey } from '../../alerts/prefs';
import { SEALING_CHECK_SETTING } from '../../sealing-check';
import type { TokenCipher } from '../../secrets';
import { META_APP_SECRET } from '../../settings/use-cases';

type Row = Record<string, unknown>;

interface SealedValue {
  table: string;
  column: string;
  applies(row: Row): boolean;
  /** The secret in the clear; throws when the key does not open it. */
  open(value: unknown, cipher: TokenCipher): unknown;
  seal(plain: unknown, cipher: TokenCipher): unknown;
}

const bytes = (table: string, column: string): SealedValue => ({
  table,
  column,
  applies: (row) => row[column] !== null,
  open: (value, cipher) => cipher.decrypt(value as Buffer),
  seal: (plain, cipher) => cipher.encrypt(plain as string),
});

const SMTP_PREFIX = smtpKey('');
const base64Settings = new Set([SEALING_CHECK_SETTING, META_APP_SECRET]);

const SEALED: readonly SealedValue[] = [
  bytes('platform_connections', 'token_encrypted'),
  bytes('alert_destinations', 'secret_sealed'),
  {
    table: 'settings',
    column: 'value',
    applies: (row) => base64Settings.has(row.key as string),
    open: (value, cipher) => cipher.decrypt(Buffer.from(value as string, 'base64')),
    seal: (plain, cipher) => cipher.encrypt(plain as string).toString('base64'),
  },
  {
    // A workspace's SMTP server: JSON whose password is sealed (base64), or null without one.
    table: 'settings',
    column: 'value',
    applies: (row) => (row.key as string).startsWith(SMTP_PREFIX),
    open(value, cipher) {
      const smtp = JSON.parse(value as string) as { password?: string | null };
      const password = smtp.password == null ? null : cipher.decrypt(Buffer.from(smtp.password, 'base64'));
      return JSON.stringify({ ...smtp, password });
    },
    seal(plain, cipher) {
      const smtp = JSON.parse(plain as string) as { password?: string | null };
      const password = smtp.password == null ? null : cipher.encrypt(smtp.password).toString('base64');
      return JSON.stringify({ ...smtp, password });
    },
  },
];

export const isSealingCheck = (table: string, row: Row): boolean =>
  table === 'settings' && row.key === SEALING_CHECK_SETTING;

export interface SealingTally {
  /** Values opened with the source key and sealed with the target's. */
  resealed: number;
  /** Values the source key does not open (sealed with an older key: already unusable there). */
  unopened: number;
}

const TABLES_WITH_SECRETS = new Set(SEALED.map((sealed) => sealed.table));

function sealedValueOf(table: string, row: Row): SealedValue | undefined {
  if (!TABLES_WITH_SECRETS.has(table)) return undefined;
  return SEALED.find((sealed) => sealed.table === table && sealed.applies(row));
}

/** The row as the target stores it: its secrets sealed with the target's key. */
export function resealRow(
  table: string,
  row: Row,
  from: TokenCipher,
  to: TokenCipher,
  tally: SealingTally,
): Row {
  const sealed = sealedValueOf(table, row);
  if (!sealed) return row;
  let plain: unknown;
  try {
    plain = sealed.open(row[sealed.column], from);
  } catch {
    // Copied as it is: the source could not use it either (its connection already asks to reconnect).
    tally.unopened += 1;
    return row;
  }
  tally.resealed += 1;
  return { ...row, [sealed.column]: sealed.seal(plain, to) };
}

/** The row as the checksums compare it: secrets opened when the key opens them, else as stored. */
export function openedRow(table: string, row: Row, cipher: TokenCipher): Row {
  const sealed = sealedValueOf(table, row);
  if (!sealed) return row;
  try {
    return { ...row, [sealed.column]: { opened: sealed.open(row[sealed.column], cipher) } };
  } catch {
    return row;
  }
}
