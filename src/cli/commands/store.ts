// `store copy`: moves a solo install (a data directory) to a team database and back; `store check`
// compares two such stores without copying. The team side's secret key comes from
// ADLENS_SECRET_KEY_FILE. Translation only: both are src/core/store/copy.
import { z } from 'zod';
import { AppError } from '../../core/errors';
import {
  checkInstalls,
  copyInstall,
  REPORT_FILES_LABEL,
  type CheckOutcome,
  type CopyOutcome,
  type CopyProgress,
} from '../../core/store/copy';
import { cli, command, type CommandModule } from '../framework';

const DIRECTIONS =
  'give --from-data-dir DIR --to-database-url URL (solo to team) or --from-database-url URL --to-data-dir DIR (team to solo)';

const input = z
  .object({
    'from-data-dir': z.string().min(1).optional(),
    'to-database-url': z.string().min(1).optional(),
    'from-database-url': z.string().min(1).optional(),
    'to-data-dir': z.string().min(1).optional(),
    positionals: cli.noPositionals,
  })
  .transform((i, ctx) => {
    if (i['from-data-dir'] && i['to-database-url'] && !i['from-database-url'] && !i['to-data-dir']) {
      return { fromDataDir: i['from-data-dir'], toDatabaseUrl: i['to-database-url'] };
    }
    if (i['from-database-url'] && i['to-data-dir'] && !i['from-data-dir'] && !i['to-database-url']) {
      return { fromDatabaseUrl: i['from-database-url'], toDataDir: i['to-data-dir'] };
    }
    ctx.addIssue({ code: 'custom', message: DIRECTIONS });
    return z.NEVER;
  });

/** A redrawn line on a terminal; one line per table when piped, so logs stay readable. */
function progressLine(
  tty: boolean,
  write: (text: string) => void,
): { show(p: CopyProgress): void; end(): void } {
  let lastTable = '';
  return {
    show({ table, copied, total }) {
      const percent = total === 0 ? 100 : Math.floor((copied / total) * 100);
      if (tty) {
        const filled = Math.round((percent / 100) * 30);
        write(
          `\r[${'#'.repeat(filled)}${'-'.repeat(30 - filled)}] ${String(percent).padStart(3)}% ${copied}/${total} rows  ${table.padEnd(28)}`,
        );
      } else if (table !== lastTable) {
        write(`copying ${table} (${copied}/${total} rows so far)\n`);
      }
      lastTable = table;
    },
    end() {
      if (tty) write('\r\x1b[2K');
    },
  };
}

/** A comparison's table (its header and a line per table) and its verdict. */
function comparison(
  outcome: CheckOutcome,
  sides: [string, string],
  mismatch: string,
): { table: string[]; verdict: string } {
  const width = Math.max(...outcome.tables.map((t) => t.table.length));
  const header = `${'table'.padEnd(width)}  ${sides[0].padStart(9)}  ${sides[1].padStart(9)}  ${`${sides[0]} sha256`.padEnd(16)}  ${`${sides[1]} sha256`.padEnd(16)}`;
  const lines = outcome.tables.map(
    (t) =>
      `${t.table.padEnd(width)}  ${String(t.source.rows).padStart(9)}  ${String(t.target.rows).padStart(9)}  ${t.source.checksum.slice(0, 16)}  ${t.target.checksum.slice(0, 16)}  ${t.match ? 'ok' : 'DIFFERENT'}`,
  );
  const different = outcome.tables.filter((t) => !t.match).map((t) => t.table);
  return {
    table: [header, ...lines],
    verdict:
      different.length === 0
        ? `all ${outcome.tables.length - 1} tables and the ${REPORT_FILES_LABEL} match`
        : `MISMATCH in ${different.join(', ')}: ${mismatch}`,
  };
}

function summary(outcome: CopyOutcome): string {
  const { table, verdict } = comparison(outcome, ['source', 'target'], 'do not use the target');
  return [
    `copied ${outcome.from} → ${outcome.to}`,
    ...table,
    `secrets re-sealed with the target's key: ${outcome.sealing.resealed}` +
      (outcome.sealing.unopened > 0
        ? `; ${outcome.sealing.unopened} sealed with an older key were copied as they are (those connections already ask to reconnect)`
        : ''),
    verdict,
  ].join('\n');
}

/** Both commands name a data directory and a database, as `from` and `to`, and need nothing else. */
const BOTH_STORES = {
  options: {
    'from-data-dir': { type: 'string' },
    'to-database-url': { type: 'string' },
    'from-database-url': { type: 'string' },
    'to-data-dir': { type: 'string' },
  },
  input,
  needsDataDir: false,
} as const;

const storeCommands: CommandModule = [
  command({
    path: ['copy'],
    summary:
      'copies a whole install between a data directory and a PostgreSQL database (either way) into an empty target, then compares counts and checksums',
    ...BOTH_STORES,
    async run(ctx, direction) {
      // Progress goes to stderr: redrawn on a terminal, else one line per table (stdout stays the result).
      const progress = process.stderr.isTTY
        ? progressLine(true, (text) => process.stderr.write(text))
        : progressLine(false, (text) => ctx.note(text.trimEnd()));
      // Ctrl-C stops at the next batch; the target's one transaction rolls back, leaving it empty.
      let stopped = false;
      void ctx.interrupted.then(() => (stopped = true));
      let outcome: CopyOutcome;
      try {
        outcome = await copyInstall(direction, {
          onProgress: (p) => {
            if (stopped) throw new AppError('conflict', 'interrupted: the target was left empty');
            if (!ctx.json) progress.show(p);
          },
        });
      } finally {
        progress.end();
      }
      return { json: { ...outcome }, text: summary(outcome), exitCode: outcome.match ? 0 : 1 };
    },
  }),
  command({
    path: ['check'],
    summary:
      'compares a data directory and a PostgreSQL database table by table (counts and checksums, secrets opened) without copying; the data directory is opened read-only',
    ...BOTH_STORES,
    async run(_ctx, stores) {
      const outcome = await checkInstalls(stores);
      const { table, verdict } = comparison(
        outcome,
        ['from', 'to'],
        'the stores differ (a store being written to differs while it is written)',
      );
      const text = [`compared ${outcome.from} with ${outcome.to}`, ...table, verdict].join('\n');
      return { json: { ...outcome }, text, exitCode: outcome.match ? 0 : 1 };
    },
  }),
];

export default storeCommands;
