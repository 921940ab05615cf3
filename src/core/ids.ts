import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export type IdPrefix =
  | 'act'
  | 'camp'
  | 'adset'
  | 'ad'
  | 'diag'
  | 'rpt'
  | 'user'
  | 'ws'
  | 'key'
  | 'conn'
  | 'sync'
  | 'inv'
  | 'sched'
  | 'sess'
  | 'fb'
  | 'iss'
  | 'dest'
  | 'dlv'
  | 'view';

/** Random base62 text of the given length (rejection sampling keeps it unbiased). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** `<prefix>_` + 16 base62 characters with at least one letter, so it never looks like a platform ID. */
export function newId(prefix: IdPrefix): string {
  for (;;) {
    const body = randomBase62(16);
    if (/[A-Za-z]/.test(body)) return `${prefix}_${body}`;
  }
}

const SERVICE_ID = /^([a-z]+)_([0-9A-Za-z]{16})$/;

/** True when `value` is a service ID of that prefix (not a platform ID such as act_<digits>). */
export function isServiceId(prefix: IdPrefix, value: string): boolean {
  const match = SERVICE_ID.exec(value);
  return match !== null && match[1] === prefix && /[A-Za-z]/.test(match[2] ?? '');
}

/** A platform ad account ID: act_ followed by digits. */
export function isPlatformAccountId(value: string): boolean {
  return /^act_\d{1,20}$/.test(value);
}
