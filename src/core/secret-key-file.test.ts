import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSecretKeyFile, secretKeyFileCipher, SECRET_KEY_FILE_ENV } from './secret-key-file';
import { aesTokenCipher } from './secrets';

const dir = mkdtempSync(join(tmpdir(), 'adlens-secret-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function keyFile(name: string, content: string): NodeJS.ProcessEnv {
  const path = join(dir, name);
  writeFileSync(path, content, { mode: 0o600 });
  return { [SECRET_KEY_FILE_ENV]: path };
}

describe('ADLENS_SECRET_KEY_FILE', () => {
  it('reads 32 bytes of base64 as `openssl rand -base64 32` writes them, and seals with them', () => {
    const key = randomBytes(32);
    const env = keyFile('good.key', `${key.toString('base64')}\n`);
    expect(readSecretKeyFile(env).equals(key)).toBe(true);
    const sealed = secretKeyFileCipher(env).encrypt('EAAB-token');
    // The same AES-256-GCM sealing as a data directory's token.key: only this key opens it.
    expect(aesTokenCipher(key).decrypt(sealed)).toBe('EAAB-token');
    expect(() => aesTokenCipher(randomBytes(32)).decrypt(sealed)).toThrow();
  });

  it('refuses a missing variable, a missing or unreadable file, bad base64 and a wrong length, never making a key', () => {
    expect(() => readSecretKeyFile({})).toThrow(/ADLENS_SECRET_KEY_FILE is not set.*openssl rand -base64 32/);
    expect(() => readSecretKeyFile({ [SECRET_KEY_FILE_ENV]: join(dir, 'absent.key') })).toThrow(
      /cannot be read \(it does not exist\)/,
    );
    expect(() => readSecretKeyFile({ [SECRET_KEY_FILE_ENV]: dir })).toThrow(
      /cannot be read \(it is a directory\)/,
    );
    expect(() => readSecretKeyFile(keyFile('text.key', 'not a key at all!'))).toThrow(
      /does not hold a base64 key/,
    );
    expect(() => readSecretKeyFile(keyFile('empty.key', '\n'))).toThrow(/does not hold a base64 key/);
    expect(() => readSecretKeyFile(keyFile('short.key', randomBytes(16).toString('base64')))).toThrow(
      /holds a 16-byte key, not 32 bytes/,
    );
    expect(() => readSecretKeyFile(keyFile('hex.key', randomBytes(32).toString('hex')))).toThrow(
      /holds a 48-byte key, not 32 bytes/,
    );
  });
});
