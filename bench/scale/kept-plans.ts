// The kept plans at full size: every statement a team process ran with a kept (generic) plan
// (`keptPlan`, src/core/store/sql.ts) is explained as its connections plan it, on the loaded agency.
// A kept plan is made once for any values, so it must search keys whatever they are: one that reads
// a large table whole (a sequential scan, or an index walked from end to end) is named here.
import pg from 'pg';
import { LARGE_TABLES } from '../../src/test-support/table-sizes';

/** The tables of millions of rows at agency scale, and the history that grows as large there. */
const LARGE = new Set([...LARGE_TABLES, 'insights_account_daily', 'issues', 'diagnostics', 'sync_runs']);

/** Indexes a page walks in their own order and leaves after LIMIT rows (the campaign list by name). */
const PAGE_WALKS = new Set(['campaigns_name_order']);

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

function wholeReads(node: PlanNode, paged: boolean): string[] {
  const table = node['Relation Name'];
  const index = node['Index Name'];
  const large = table !== undefined && LARGE.has(table);
  const own =
    large && node['Node Type'] === 'Seq Scan'
      ? [`Seq Scan on ${table}`]
      : large && index && !node['Index Cond'] && !(paged && PAGE_WALKS.has(index))
        ? [`all of ${index} on ${table}`]
        : [];
  return [...own, ...(node.Plans ?? []).flatMap((child) => wholeReads(child, paged))];
}

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
  const client = new pg.Client({
    connectionString: databaseUrl,
    options: '-c plan_cache_mode=force_generic_plan -c max_parallel_workers_per_gather=0',
  });
  await client.connect();
  const offenders: string[] = [];
  try {
    for (const text of new Set(statements)) {
      const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `EXPLAIN (GENERIC_PLAN, FORMAT JSON) ${text}`,
      );
      const found = wholeReads(rows[0]!['QUERY PLAN'][0].Plan, /\bLIMIT\b/i.test(text));
      if (found.length > 0)
        offenders.push(`${found.join(', ')} in: ${text.replace(/\s+/g, ' ').slice(0, 200)}`);
    }
  } finally {
    await client.end();
  }
  return { explained: new Set(statements).size, offenders };
}
