// Whole reads of a table in a PostgreSQL plan (EXPLAIN … FORMAT JSON): what the query-plan test
// refuses on every statement the API runs, and what the scale bench refuses in a kept plan.

/**
 * Indexes walked in their own order by a statement that stops after a page (LIMIT): the campaigns
 * list of a whole agency by name reads OFFSET + LIMIT entries of this narrow index, never the table.
 */
export const ORDERED_WALKS: readonly string[] = ['campaigns_name_order'];

/** A node of PostgreSQL's JSON plan (the fields read here). */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

export interface WholeReadRules {
  /** The tables a whole read of is refused. */
  tables: readonly string[];
  /** Partial indexes: they hold only the rows still to handle, so walking one whole is fine. */
  partial?: ReadonlySet<string>;
  /** The statement stops after a page (LIMIT): an ordered walk (ORDERED_WALKS) reads only that. */
  limited: boolean;
}

/**
 * The reads of a whole table of `rules.tables` in a plan: a sequential scan, or a walk of a whole
 * index (no Index Cond), except a partial index and an ordered walk under a LIMIT. A bitmap scan is
 * judged by its index scans.
 */
export function wholeReads(node: PlanNode, rules: WholeReadRules, table?: string): string[] {
  const relation = node['Relation Name'] ?? table;
  const index = node['Index Name'];
  const counted = relation !== undefined && rules.tables.includes(relation);
  let found: string[] = [];
  if (counted && node['Node Type'] === 'Seq Scan') found = [`Seq Scan on ${relation}`];
  if (counted && index && !node['Index Cond'] && !rules.partial?.has(index)) {
    if (!(rules.limited && ORDERED_WALKS.includes(index)))
      found = [`${node['Node Type']} of all of ${index} on ${relation}`];
  }
  // A bitmap heap scan's index scans name no table: they read the heap scan's.
  const inherited = node['Node Type'] === 'Bitmap Heap Scan' ? relation : undefined;
  return [...found, ...(node.Plans ?? []).flatMap((child) => wholeReads(child, rules, inherited))];
}
