// The record of a clean close (clean-close.ts): a file checked, closed cleanly and unchanged opens
// without the integrity check; a crash, a change, a WAL left behind or a week-old check means the
// check runs again. Damage written with the file's time put back shows which of the two happened.
import Database from 'better-sqlite3';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE, openStore } from './open';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adlens-clean-close-'));
  path = join(dir, DATABASE_FILE);
  const store = openStore(dir);
  const insert = store.db.prepare(`INSERT INTO settings (key, value) VALUES (?, ?)`);
  store.db.transaction(() => {
    for (let i = 0; i < 3000; i += 1) insert.run(`filler:${i}`, 'x'.repeat(40));
  })();
  store.close();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A file time that setting it back restores exactly (whole seconds). */
const KEPT_TIME = 1_790_000_000;

/** Damages pages in place and puts the file's time back, as the disk's silent decay would. */
function damageKeepingTime(): void {
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(12288, 0xff), 0, 12288, 12288);
  closeSync(fd);
  utimesSync(path, KEPT_TIME, KEPT_TIME);
}

/** Gives the file the kept time, then opens and closes it: checked, and closed cleanly at that time. */
function checkedAtKeptTime(): void {
  utimesSync(path, KEPT_TIME, KEPT_TIME);
  openStore(dir).close();
  expect(statSync(path).mtimeMs).toBe(KEPT_TIME * 1000);
}

const opens = () => openStore(dir).close();
const record = () => JSON.parse(readFileSync(`${path}.checked`, 'utf8')) as { checkedAt: number };

describe('the record of a clean close', () => {
  it('lets an unchanged file open without the check, and keeps the time of the last real check', () => {
    checkedAtKeptTime();
    const { checkedAt } = record();
    damageKeepingTime();
    expect(opens).not.toThrow();
    expect(record().checkedAt).toBe(checkedAt);
  });

  it('is gone while the file is open, so after a crash the next open checks', () => {
    checkedAtKeptTime();
    const store = openStore(dir);
    expect(existsSync(`${path}.checked`)).toBe(false);
    store.db.close(); // a crash: the store's own close never runs
    damageKeepingTime();
    expect(opens).toThrow(/is damaged/);
  });

  it('does not vouch for a file changed since (its time moves on)', () => {
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(12288, 0xff), 0, 12288, 12288);
    closeSync(fd);
    expect(opens).toThrow(/is damaged/);
  });

  it('does not vouch for a check older than a week', () => {
    checkedAtKeptTime();
    const week = 7 * 24 * 3600 * 1000;
    writeFileSync(`${path}.checked`, JSON.stringify({ ...record(), checkedAt: Date.now() - week - 1000 }));
    damageKeepingTime();
    expect(opens).toThrow(/is damaged/);
  });

  it('vouches for nothing when it is not a record this code wrote', () => {
    checkedAtKeptTime();
    damageKeepingTime();
    for (const text of ['{}', 'not json', JSON.stringify({ ...record(), mtimeNs: 'x' }), '']) {
      writeFileSync(`${path}.checked`, text);
      expect(opens, text).toThrow(/is damaged/);
    }
  });

  it('is not written while another connection keeps a WAL beside the file', () => {
    const other = new Database(path);
    other.prepare(`INSERT INTO settings (key, value) VALUES ('other', 'x')`).run();
    const store = openStore(dir);
    store.close();
    expect(existsSync(`${path}.checked`)).toBe(false);
    other.close();
  });
});
