// Results per result type of each account over a window. Summing them reads every campaign row of
// the window (an agency's 90 days: millions of rows), while the account-day rollup tells in one row
// per account whether anything of that window changed. So the groups are kept per account and window
// under the account's last sync (a campaign's result type changes only by a sync) and the window's
// rollup fingerprint (any write of a campaign row in the window moves it); what is missing is
// summed for all the missing accounts in one statement. The portfolio and the insights summary
// share this one rule.
import type { Sql } from '../store/sql';
import type { ResultTypeRow } from './result-groups';
import { resultsPerAccount } from './queries';

/** What identifies an account's window contents: its last sync and its rollup fingerprint. */
export interface AccountStamp {
  accountId: string;
  lastSyncedAt: string | null;
  fingerprint: string;
}

const DEFAULT_SIZE = 2000;

export class AccountResults {
  /** Per account and window: the groups and the stamp they were summed under (a new stamp replaces them). */
  private readonly memo = new Map<string, { stamp: string; groups: ResultTypeRow[] }>();

  constructor(private readonly size = DEFAULT_SIZE) {}

  /** Each account's result groups over `from`..`to` (the largest spend first). */
  async of(
    sql: Sql,
    accounts: readonly AccountStamp[],
    from: string,
    to: string,
  ): Promise<Map<string, ResultTypeRow[]>> {
    const out = new Map<string, ResultTypeRow[]>();
    const missing: AccountStamp[] = [];
    for (const account of accounts) {
      const kept = this.memo.get(keyOf(account.accountId, from, to));
      if (kept?.stamp === stampOf(account)) out.set(account.accountId, kept.groups);
      else missing.push(account);
    }
    if (missing.length > 0) {
      const fresh = await resultsPerAccount(
        sql,
        missing.map((a) => a.accountId),
        from,
        to,
      );
      for (const account of missing) {
        const groups = fresh.get(account.accountId) ?? [];
        this.remember(keyOf(account.accountId, from, to), { stamp: stampOf(account), groups });
        out.set(account.accountId, groups);
      }
    }
    return out;
  }

  private remember(key: string, entry: { stamp: string; groups: ResultTypeRow[] }): void {
    // Oldest first out (a Map iterates in insertion order); a replaced entry moves to the end.
    this.memo.delete(key);
    if (this.memo.size >= this.size) this.memo.delete(this.memo.keys().next().value as string);
    this.memo.set(key, entry);
  }
}

function keyOf(accountId: string, from: string, to: string): string {
  return `${accountId}|${from}|${to}`;
}

function stampOf(a: AccountStamp): string {
  return `${a.lastSyncedAt ?? ''}|${a.fingerprint}`;
}
