// Signed download links: HMAC-SHA256 of `${reportId}.${expires}` with a per-install secret kept in the
// settings table, so links survive restarts and stop working after `expires` (unix seconds).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Sql } from '../store/sql';

const SECRET_KEY = 'report_signing_secret';

/**
 * The install's signing secret, made on first use (the first writer's stays, so every process of a
 * team server signs and checks links with the same one).
 */
export async function signingSecret(sql: Sql): Promise<string> {
  await sql.run(`INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`, [
    SECRET_KEY,
    randomBytes(32).toString('hex'),
  ]);
  const row = await sql.get<{ value: string }>(`SELECT value FROM settings WHERE key = ?`, [SECRET_KEY]);
  if (!row) throw new Error('the report signing secret could not be read back');
  return row.value;
}

export function signDownload(secret: string, reportId: string, expires: number | string): string {
  return createHmac('sha256', secret).update(`${reportId}.${expires}`).digest('hex');
}

export function verifyDownload(
  secret: string,
  reportId: string,
  expires: string,
  signature: string,
): boolean {
  // Only the canonical decimal the link was made with: the signature covers the exact text, so
  // `expires=0<expires>` or `+<expires>` is another (unsigned) link.
  if (!/^[1-9]\d{0,11}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return false;
  const expected = Buffer.from(signDownload(secret, reportId, expires), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

/** A download name a person can read: the title and range, with an ASCII fallback for old clients. */
export function downloadFileName(
  title: string,
  from: string,
  to: string,
  extension: string,
): {
  fileName: string;
  asciiFileName: string;
  contentDisposition: string;
} {
  const cleaned = title
    .normalize('NFC')
    .replace(/[\p{Cc}/\\:*?"<>|]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120);
  const fileName = `${cleaned || 'Report'} ${from} to ${to}.${extension}`;
  const ascii = cleaned
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 ._-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/ /g, '-');
  const asciiFileName = `${ascii || 'report'}_${from}_${to}.${extension}`;
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return {
    fileName,
    asciiFileName,
    contentDisposition: `attachment; filename="${asciiFileName}"; filename*=UTF-8''${encoded}`,
  };
}
