// The kept plans at full size: every statement a team process ran with a kept (generic) plan
// (`keptPlan`, src/core/store/sql.ts) is explained as its connections plan it, on the loaded agency.
// A kept plan is made once for any values, so it must search keys whatever they are: one that reads
// a large table whole (a sequential scan, or an index walked from end to end) is named here.
import { connectPg } from '../../src/core/store/pg/connect';
import { wholeReads, type PlanNode } from '../../src/test-support/plan-reads';
import { LARGE_TABLES } from '../../src/test-support/table-sizes';

/** The tables of millions of rows at agency scale, and the history that grows as large there. */
const LARGE = [...LARGE_TABLES, 'insights_account_daily', 'issues', 'diagnostics', 'sync_runs'];

export interface KeptPlanCheck {
  explained: number;
  /** One line per statement whose kept plan reads a large table whole. */
  offenders: string[];
}

/** Explains each statement with a generic plan, as the team process's kept-plan connections do. */
export async function checkKeptPlans(
  databaseUrl: string,
  statements: readonly string[],
): Promise<KeptPlanCheck> {
  // A connection as a team process opens for its kept plans (`connectPg`'s generic plans).
  const pool = connectPg(databaseUrl, { max: 1, plans: 'generic' });
  const offenders: string[] = [];
  const distinct = new Set(statements);
  try {
    for (const text of distinct) {
      const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `EXPLAIN (GENERIC_PLAN, FORMAT JSON) ${text}`,
      );
      const found = wholeReads(rows[0]!['QUERY PLAN'][0].Plan, {
        tables: LARGE,
        limited: /\bLIMIT\b/i.test(text),
      });
      if (found.length > 0)
        offenders.push(`${found.join(', ')} in: ${text.replace(/\s+/g, ' ').slice(0, 200)}`);
    }
  } finally {
    await pool.end();
  }
  return { explained: distinct.size, offenders };
}
