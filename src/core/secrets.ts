import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Encrypts platform tokens at rest. The desktop host supplies one backed by Electron safeStorage;
 * headless hosts use a key file with 0600 permissions in the data directory.
 */
export interface TokenCipher {
  encrypt(plain: string): Buffer;
  decrypt(sealed: Buffer): string;
}

const VERSION = 1;

/** AES-256-GCM: [version][12-byte IV][16-byte tag][ciphertext]. */
export function aesTokenCipher(key: Buffer): TokenCipher {
  if (key.length !== 32) throw new RangeError('token key must be 32 bytes');
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
    },
    decrypt(sealed) {
      if (sealed[0] !== VERSION) throw new Error('unknown token encryption version');
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(1, 13));
      decipher.setAuthTag(sealed.subarray(13, 29));
      return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]).toString('utf8');
    },
  };
}

export const KEY_FILE = 'token.key';

/** Reads (or creates, 0600) the data directory's key file. */
export function fileTokenCipher(dataDir: string): TokenCipher {
  const path = join(dataDir, KEY_FILE);
  if (!existsSync(path)) {
    writeFileSync(path, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  chmodSync(path, 0o600);
  return aesTokenCipher(Buffer.from(readFileSync(path, 'utf8').trim(), 'base64'));
}
