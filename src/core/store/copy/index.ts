// Opens both ends of a `store copy` (a data directory and a database, either way round) and runs it.
import { secretKeyFileCipher } from '../../secret-key-file';
import { copyStore, type CopyOptions, type CopyOutcome } from './copy';
import { PgSide } from './pg-side';
import { SqliteSide } from './sqlite-side';

export type CopyDirection =
  { fromDataDir: string; toDatabaseUrl: string } | { fromDatabaseUrl: string; toDataDir: string };

export type { CopyOutcome, CopyProgress, TableComparison } from './copy';
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
