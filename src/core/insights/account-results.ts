// Results per result type of each account over a window. Summing them reads every campaign row of
// the window (an agency's 90 days: millions of rows), so they are kept per account and window under
// the account's revision (account-figures.ts: any write of its campaigns or of a campaign row moves
// it); what is missing is summed for all the missing accounts of a window in one statement. The
// portfolio and the insights summary share this one rule.
import type { Sql } from '../store/sql';
import type { AccountFigures, Revisions } from './account-figures';
import type { ResultTypeRow } from './result-groups';
import { resultsPerAccount, type Window } from './queries';

/** Each account's result groups (the largest spend first) over its own window. */
export function accountResults(
  sql: Sql,
  figures: AccountFigures,
  revisions: Revisions,
  windowOf: (accountId: string) => Window,
): Promise<Map<string, ResultTypeRow[]>> {
  return figures.each<ResultTypeRow[]>(
    revisions,
    (accountId) => {
      const w = windowOf(accountId);
      return `results|${w.from}|${w.to}`;
    },
    async (accountIds) => {
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
        for (const [accountId, groups] of await resultsPerAccount(sql, ids, from, to))
          out.set(accountId, groups);
      }
      return out;
    },
    [],
  );
}
