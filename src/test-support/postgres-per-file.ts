// A test file's own PostgreSQL, started and stopped by the file's hooks (vitest only: the scale bench
// uses postgres.ts directly).
import { afterAll, beforeAll } from 'vitest';
import { startTestPostgres, type TestPostgres } from './postgres';

/**
 * One PostgreSQL for the calling test file: started before its tests (initdb takes a few seconds,
 * hence the long hook timeout) and stopped, folder and all, after them.
 */
export function postgresPerFile(): Pick<TestPostgres, 'createDatabase'> {
  let server: TestPostgres | undefined;
  beforeAll(async () => {
    server = await startTestPostgres();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });
  return {
    createDatabase: () => {
      if (!server) throw new Error('the test PostgreSQL is not started: call createDatabase inside a test');
      return server.createDatabase();
    },
  };
}
