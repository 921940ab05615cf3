// The team server's key for sealed secrets. A team deployment has no data directory to keep
// token.key in, so the key comes from the file named by ADLENS_SECRET_KEY_FILE: 32 random bytes in
// base64, as `openssl rand -base64 32` writes them (a mounted secret, mode 0600). Anything else is
// refused with what to do: a new key made silently would leave every stored token unreadable.
import { readFileSync } from 'node:fs';
import { AppError } from './errors';
import { aesTokenCipher, type TokenCipher } from './secrets';

export const SECRET_KEY_FILE_ENV = 'ADLENS_SECRET_KEY_FILE';

const HOW =
  'create one with `openssl rand -base64 32 > adlens.key` (keep it, and back it up: tokens sealed with it cannot be read without it)';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The 32-byte key of the file named by ADLENS_SECRET_KEY_FILE, or a refusal that says what is wrong. */
export function readSecretKeyFile(env: NodeJS.ProcessEnv = process.env): Buffer {
  const path = env[SECRET_KEY_FILE_ENV];
  if (!path) {
    throw new AppError(
      'invalid_request',
      `${SECRET_KEY_FILE_ENV} is not set: the team server needs the file of its secret key; ${HOW}`,
    );
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'it does not exist'
        : code === 'EACCES'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'it is a directory'
            : (error as Error).message;
    throw new AppError('invalid_request', `${SECRET_KEY_FILE_ENV}=${path} cannot be read (${why}); ${HOW}`);
  }
  const encoded = text.trim();
  const key = BASE64.test(encoded) && encoded.length % 4 === 0 ? Buffer.from(encoded, 'base64') : null;
  if (!key) {
    throw new AppError(
      'invalid_request',
      `${SECRET_KEY_FILE_ENV}=${path} does not hold a base64 key; ${HOW}`,
    );
  }
  if (key.length !== 32) {
    throw new AppError(
      'invalid_request',
      `${SECRET_KEY_FILE_ENV}=${path} holds a ${key.length}-byte key, not 32 bytes; ${HOW}`,
    );
  }
  return key;
}

/** Seals and opens secrets (platform tokens and the rest) with the team server's key. */
export function secretKeyFileCipher(env: NodeJS.ProcessEnv = process.env): TokenCipher {
  return aesTokenCipher(readSecretKeyFile(env));
}
