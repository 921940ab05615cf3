// Opens both ends of a `store copy` (a data directory and a database, either way round) and runs it.
import { secretKeyFileCipher } from '../../secret-key-file';
import { compare, copyStore, sumsOf, type CheckOutcome, type CopyOptions, type CopyOutcome } from './copy';
import { PgSide } from './pg-side';
import { SqliteSide } from './sqlite-side';

export type CopyDirection =
  { fromDataDir: string; toDatabaseUrl: string } | { fromDatabaseUrl: string; toDataDir: string };

export type { CheckOutcome, CopyOutcome, CopyProgress, TableComparison } from './copy';
export { REPORT_FILES_LABEL } from './copy';

export async function copyInstall(
  direction: CopyDirection,
  options: CopyOptions & { env?: NodeJS.ProcessEnv } = {},
): Promise<CopyOutcome> {
  // The team side's key first: a refusal here leaves both ends untouched.
  const teamCipher = secretKeyFileCipher(options.env);
  if ('fromDataDir' in direction) {
    const source = SqliteSide.openSource(direction.fromDataDir);
    try {
      const target = await PgSide.open(direction.toDatabaseUrl, teamCipher);
      try {
        return await copyStore(source, target, source.tables(), options);
      } finally {
        await target.close();
      }
    } finally {
      await source.close();
    }
  }
  const source = await PgSide.open(direction.fromDatabaseUrl, teamCipher);
  try {
    const target = SqliteSide.openTarget(direction.toDataDir);
    try {
      return await copyStore(source, target, target.tables(), options);
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

/**
 * `store check`: counts and hashes every table and the report files of both stores (each in one
 * consistent read; the data directory opened read-only) and compares them, copying nothing. Two live
 * stores match only while neither is written to.
 */
export async function checkInstalls(
  stores: CopyDirection,
  options: { env?: NodeJS.ProcessEnv } = {},
): Promise<CheckOutcome> {
  const teamCipher = secretKeyFileCipher(options.env);
  const solo = SqliteSide.openSource('fromDataDir' in stores ? stores.fromDataDir : stores.toDataDir, {
    readonly: true,
  });
  try {
    const team = await PgSide.open(
      'fromDataDir' in stores ? stores.toDatabaseUrl : stores.fromDatabaseUrl,
      teamCipher,
    );
    try {
      const [from, to] = 'fromDataDir' in stores ? [solo, team] : [team, solo];
      const tables = solo.tables();
      const comparisons = compare(tables, await sumsOf(from, tables), await sumsOf(to, tables));
      return {
        from: from.label,
        to: to.label,
        tables: comparisons,
        match: comparisons.every((c) => c.match),
      };
    } finally {
      await team.close();
    }
  } finally {
    await solo.close();
  }
}
