// Shared set-up of the reports tests: a core on a temp data directory with the report fixture seeded.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { createCore, type Core } from '../core/core';
import type { Clock } from '../core/clock';
import type { RequestContext } from '../core/identity/access';
import { seedReportFixture, type ReportFixture } from './reports-fixtures';

export interface Harness {
  dir: string;
  core: Core;
  fixture: ReportFixture;
  ctx: RequestContext;
  cleanup(): void;
}

/** A clock the test moves by hand. */
export function manualClock(
  start: string,
): Clock & { set(at: string): void; advanceDays(days: number): void } {
  let now = new Date(start);
  return {
    now: () => new Date(now),
    set: (at) => {
      now = new Date(at);
    },
    advanceDays: (days) => {
      now = new Date(now.getTime() + days * 86_400_000);
    },
  };
}

export function harness(
  opts: { campaigns?: number; plan?: 'agency' | 'trial' | 'pro'; clock?: Clock } = {},
): Harness {
  const dir = mkdtempSync(join(tmpdir(), 'adlens-reports-'));
  const core = createCore({ dataDir: dir, clock: opts.clock ?? manualClock('2026-04-01T09:00:00.000Z') });
  const fixture = seedReportFixture(core.db, { campaigns: opts.campaigns ?? 6, plan: opts.plan ?? 'agency' });
  const ctx: RequestContext = {
    workspaceId: fixture.workspaceId,
    plan: opts.plan ?? 'agency',
    userId: fixture.userId,
    keyId: null,
    mode: 'all',
  };
  return {
    dir,
    core,
    fixture,
    ctx,
    cleanup: () => {
      core.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A 1×1 PNG as a data URI (valid magic bytes and structure). */
export const TINY_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** A solid-colour PNG with a lighter band, as a data URI (for white-label logos). */
export function pngLogo(width: number, height: number, rgb: [number, number, number]): string {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x += 1) {
      const band = y > height / 3 && y < (2 * height) / 3 && x > width / 8;
      row[1 + x * 3] = band ? 255 : rgb[0];
      row[2 + x * 3] = band ? 255 : rgb[1];
      row[3 + x * 3] = band ? 255 : rgb[2];
    }
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}
