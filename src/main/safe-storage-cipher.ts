// Platform tokens encrypted with the OS keychain through Electron's safeStorage. Where the OS offers
// no keychain (some Linux desktops), the data directory's 0600 key file is used instead, as headless.
import { safeStorage } from 'electron';
import { fileTokenCipher, type TokenCipher } from '../core/secrets';

const MARK = Buffer.from('SS1');

export function desktopTokenCipher(dataDir: string, warn: (message: string) => void): TokenCipher {
  const fallback = fileTokenCipher(dataDir);
  const available = safeStorage.isEncryptionAvailable();
  if (!available) warn('OS keychain unavailable: tokens are encrypted with the data directory key file');
  return {
    encrypt(plain) {
      return available ? Buffer.concat([MARK, safeStorage.encryptString(plain)]) : fallback.encrypt(plain);
    },
    decrypt(sealed) {
      // Tokens sealed by a headless host (key file) stay readable after the desktop takes over.
      if (sealed.subarray(0, MARK.length).equals(MARK))
        return safeStorage.decryptString(sealed.subarray(MARK.length));
      return fallback.decrypt(sealed);
    },
  };
}
