// The record of a clean close: which file state the last integrity check vouches for. PRAGMA
// quick_check reads every page: 11 s for the 9.6 GiB store of a 500-account agency (20 s from a cold
// cache), at every start of the app, `serve` and each CLI command. A file that was checked, then
// closed cleanly (its WAL checkpointed away) and not changed since (same size and modification time)
// is the file that was checked, so its next open skips the check. Anything else is checked: no record
// (a crash, a first open), another size or time (a restored copy, a tool, damage written through the
// file system), a WAL left beside it, or a check older than a week, which also bounds what the
// record cannot see (a disk's silent decay leaves the time alone).
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

const RECHECK_AFTER_MS = 7 * 24 * 3600 * 1000;

const CleanCloseRecord = z.object({
  size: z.number().int().nonnegative(),
  /** Nanoseconds, as the file system keeps them (a decimal string: beyond a double's precision). */
  mtimeNs: z.string().regex(/^\d+$/),
  /** When the last full check ran (a skipped check keeps the earlier time). */
  checkedAt: z.number(),
});
type CleanCloseRecord = z.infer<typeof CleanCloseRecord>;

const recordPath = (path: string) => `${path}.checked`;

function walIsEmpty(path: string): boolean {
  const wal = `${path}-wal`;
  return !existsSync(wal) || statSync(wal).size === 0;
}

/** When the file was last checked, if its clean-close record still vouches for it; else null. */
export function vouchedCheck(path: string, now: number): number | null {
  let record: CleanCloseRecord;
  try {
    // Anything but a record this code wrote (a hand edit, a half-written file) vouches for nothing.
    record = CleanCloseRecord.parse(JSON.parse(readFileSync(recordPath(path), 'utf8')));
  } catch {
    return null;
  }
  const stat = statSync(path, { bigint: true });
  const vouches =
    stat.size === BigInt(record.size) &&
    stat.mtimeNs.toString() === record.mtimeNs &&
    walIsEmpty(path) &&
    now - record.checkedAt >= 0 &&
    now - record.checkedAt < RECHECK_AFTER_MS;
  return vouches ? record.checkedAt : null;
}

/** The file is open for writing: a record of an earlier close no longer vouches for anything. */
export function forgetCleanClose(path: string): void {
  rmSync(recordPath(path), { force: true });
}

/** After the last connection closed: records the file as checked at `checkedAt` if it closed cleanly. */
export function recordCleanClose(path: string, checkedAt: number): void {
  try {
    if (!walIsEmpty(path)) return; // another connection is still open, or the checkpoint did not finish
    const { size, mtimeNs } = statSync(path, { bigint: true });
    const record: CleanCloseRecord = { size: Number(size), mtimeNs: mtimeNs.toString(), checkedAt };
    writeFileSync(recordPath(path), JSON.stringify(record), {
      mode: 0o600,
    });
  } catch {
    // No record: the next open checks the file, as after a crash.
  }
}
