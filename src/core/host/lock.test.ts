import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireDataDirLock, LOCK_FILE, readLock } from './lock';

const tempDir = () => mkdtempSync(join(tmpdir(), 'adlens-lock-'));

describe('data directory lock', () => {
  it('is taken with pid, kind and start time, and released', () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir, 'headless');
    expect(readLock(dir)).toMatchObject({ pid: process.pid, kind: 'headless' });
    lock.setUrl('http://127.0.0.1:1234');
    expect(readLock(dir)?.url).toBe('http://127.0.0.1:1234');
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('refuses a second server while the holder lives, naming its pid and kind', async () => {
    const dir = tempDir();
    // A live process that is not us holds the lock.
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      writeFileSync(
        join(dir, LOCK_FILE),
        JSON.stringify({ pid: holder.pid, kind: 'desktop', startedAt: '2026-03-15T12:00:00.000Z' }),
      );
      expect(() => acquireDataDirLock(dir, 'headless')).toThrow(
        expect.objectContaining({
          type: 'conflict',
          message: expect.stringContaining(`desktop AdLens server (pid ${holder.pid}`),
        }),
      );
      expect(readLock(dir)?.pid).toBe(holder.pid);
      // The same process cannot take it twice either.
      const dir2 = tempDir();
      const mine = acquireDataDirLock(dir2, 'headless');
      expect(() => acquireDataDirLock(dir2, 'headless')).toThrow(
        expect.objectContaining({ type: 'conflict' }),
      );
      mine.release();
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('takes over a stale lock whose process is gone, and an unreadable one', () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, LOCK_FILE),
      JSON.stringify({ pid: 2147483646, kind: 'headless', startedAt: 'x' }),
    );
    const lock = acquireDataDirLock(dir, 'headless');
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
    writeFileSync(join(dir, LOCK_FILE), 'not json');
    acquireDataDirLock(dir, 'desktop').release();
    // A lock naming our own pid that this process does not hold (a restarted container's pid 1).
    writeFileSync(
      join(dir, LOCK_FILE),
      JSON.stringify({ pid: process.pid, kind: 'headless', startedAt: 'x' }),
    );
    acquireDataDirLock(dir, 'headless').release();
  });
});
