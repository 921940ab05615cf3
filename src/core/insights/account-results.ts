// Results per result type of each account over a window. Summing them reads every campaign row of
// the window (an agency's 90 days: millions of rows), so they are kept per account and window under
// the account's revision (account-figures.ts: any write of its campaigns or of a campaign row moves
// it); what is missing is summed for all the missing accounts of a window in one statement. The
// portfolio and the insights summary share this one rule: the summary adds the rows across accounts,
// the portfolio shows each account's as its groups.
import type { Sql } from '../store/sql';
import type { ResultGroup } from '../../shared/api/portfolio';
import type { AccountFigures, Revisions } from './account-figures';
import { toResultGroups, type ResultTypeRow } from './result-groups';
import { resultsPerAccount, type Window } from './queries';

/** The figure's name for an account's window: `name|from|to`. */
const named = (name: string, windowOf: (accountId: string) => Window) => (accountId: string) => {
  const w = windowOf(accountId);
  return `${name}|${w.from}|${w.to}`;
};

/** The accounts' rows per result type, each over its own window: one statement per window. */
async function resultRows(
  sql: Sql,
  accountIds: readonly string[],
  windowOf: (accountId: string) => Window,
): Promise<Map<string, ResultTypeRow[]>> {
  const byWindow = new Map<string, string[]>();
  for (const accountId of accountIds) {
    const w = windowOf(accountId);
    const key = `${w.from}|${w.to}`;
    const own = byWindow.get(key);
    if (own) own.push(accountId);
    else byWindow.set(key, [accountId]);
  }
  const out = new Map<string, ResultTypeRow[]>();
  for (const [key, ids] of byWindow) {
    const [from, to] = key.split('|') as [string, string];
    for (const [accountId, groups] of await resultsPerAccount(sql, ids, from, to)) out.set(accountId, groups);
  }
  return out;
}

/** Each account's rows per result type (the largest spend first) over its own window. */
export function accountResults(
  sql: Sql,
  figures: AccountFigures,
  revisions: Revisions,
  windowOf: (accountId: string) => Window,
): Promise<Map<string, ResultTypeRow[]>> {
  return figures.each<ResultTypeRow[]>(
    revisions,
    named('results', windowOf),
    (accountIds) => resultRows(sql, accountIds, windowOf),
    [],
  );
}

/**
 * Each account's result groups (results, cost per result, ROAS per type) over its own window, kept as
 * a portfolio line or an overview shows them.
 */
export function accountResultGroups(
  sql: Sql,
  figures: AccountFigures,
  revisions: Revisions,
  windowOf: (accountId: string) => Window,
): Promise<Map<string, ResultGroup[]>> {
  return figures.each<ResultGroup[]>(
    revisions,
    named('result-groups', windowOf),
    async (accountIds) => {
      const rows = await resultRows(sql, accountIds, windowOf);
      return new Map(accountIds.map((id) => [id, toResultGroups(rows.get(id) ?? [])]));
    },
    [],
  );
}
