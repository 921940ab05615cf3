import {
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { AppError } from '../errors';
import { isProcessAlive } from '../sync/runs';

/** One server (headless or desktop) per data directory; CLI commands do not take the lock. */
export const LOCK_FILE = 'adlens.lock';

export type HostKind = 'headless' | 'desktop';

/** Locks this process holds: a lock naming our own pid that is not here was left by an earlier
 * process with the same pid (a container restarted as pid 1), so it is stale. */
const heldByThisProcess = new Set<string>();

const lockInfoSchema = z.object({
  pid: z.number().int().positive(),
  kind: z.enum(['headless', 'desktop']),
  startedAt: z.string(),
  hostname: z.string().optional(),
  url: z.string().optional(),
});
export type LockInfo = z.infer<typeof lockInfoSchema>;

export interface DataDirLock {
  readonly path: string;
  readonly info: LockInfo;
  /** Records the server's URL in the lock (so a second server's message can name it). */
  setUrl(url: string): void;
  release(): void;
}

export function readLock(dataDir: string): LockInfo | undefined {
  return readLockFile(join(dataDir, LOCK_FILE));
}

function readLockFile(path: string): LockInfo | undefined {
  try {
    const parsed = lockInfoSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the data directory's lock: a file created exclusively ('wx') holding pid, host kind and start
 * time. A lock whose process is gone (or that cannot be read) is stale and taken over; a live one is
 * refused with a message naming its holder.
 */
export function acquireDataDirLock(dataDir: string, kind: HostKind, now = new Date()): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  let info: LockInfo = { pid: process.pid, kind, startedAt: now.toISOString(), hostname: hostname() };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    // Written whole to a private file, then linked into place: link() fails if the lock exists, and a
    // reader never sees a half-written lock (which it would take for a stale one).
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(info), { mode: 0o600 });
    let linked = false;
    try {
      linkSync(temp, path);
      linked = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(temp);
    }
    if (linked) {
      heldByThisProcess.add(path);
      const release = () => {
        // Only remove a lock that is still ours (a takeover after a hang must not be undone).
        if (readLock(dataDir)?.pid === process.pid && existsSync(path)) unlinkSync(path);
        heldByThisProcess.delete(path);
        process.off('exit', release);
      };
      process.on('exit', release);
      return {
        path,
        get info() {
          return info;
        },
        setUrl(url) {
          info = { ...info, url };
          writeFileSync(temp, JSON.stringify(info), { mode: 0o600 });
          renameSync(temp, path);
        },
        release,
      };
    }
    const holder = readLock(dataDir);
    const live =
      holder && (holder.pid === process.pid ? heldByThisProcess.has(path) : isProcessAlive(holder.pid));
    if (holder && live) {
      throw new AppError(
        'conflict',
        `${dataDir} is in use by the ${holder.kind} AdLens server (pid ${holder.pid}, started ${holder.startedAt}${holder.url ? `, at ${holder.url}` : ''}); stop it first or use another --data-dir. CLI commands work beside it.`,
        { holder },
      );
    }
    // Stale: its process is gone. Move it aside (atomic), and if what was moved turns out to be a live
    // lock another process just took, put it back; then try again.
    const aside = `${path}.stale.${process.pid}`;
    try {
      renameSync(path, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    const moved = readLockFile(aside);
    if (moved && (moved.pid === process.pid ? heldByThisProcess.has(path) : isProcessAlive(moved.pid))) {
      try {
        linkSync(aside, path);
      } catch {
        // Someone took the lock meanwhile: theirs stands.
      }
    }
    unlinkSync(aside);
  }
  throw new AppError('conflict', `cannot take the lock ${path}: another process keeps taking it`);
}
