// Figures computed from an account's synced data (its sums over a window, its days, its results per
// type, its daily budgets in force), kept in memory per account under the account's revision. The
// revision (ad_accounts.revision) is moved by the store's own triggers on every write of the
// account's daily rollup, campaigns or ad sets, whoever writes, and is read from the database on each
// call: so a kept figure is never older than the store, on one process or several (each team process
// keeps its own). An agency's portfolio and workspace summary then read one revision per account and
// compute only the accounts that changed, instead of summing every account's days on every read.
import { jsonValues } from '../store/dialect';
import type { Sql } from '../store/sql';

/** Each account's revision, as read at the start of a read model's work. */
export type Revisions = ReadonlyMap<string, number>;

interface Kept {
  revision: number;
  figures: Map<string, unknown>;
  /**
   * Read since eviction last passed it. Past the limit, an account not read since goes first, and a
   * read one gets a second chance (CLOCK, close to least-recently-used): a read marks the entry
   * rather than moving it to the end of the map, which cost a delete and an insert for each of 500
   * accounts several times a read.
   */
  used: boolean;
}

/** Accounts kept at most and figures kept per account. */
const MAX_ACCOUNTS = 5_000;
const MAX_FIGURES_PER_ACCOUNT = 24;
/** Figures of several accounts together kept at most (the least recently used goes first). */
const MAX_GROUP_FIGURES = 64;

const flight = (accountId: string, revision: number, name: string) =>
  `${accountId}\u0000${revision}\u0000${name}`;

export class AccountFigures {
  private readonly kept = new Map<string, Kept>();
  /** Figures of several accounts, by name, with the accounts and revisions they were computed at. */
  private readonly groups = new Map<string, { at: string; figure: unknown }>();
  /** Figures being computed, by account, revision and name: concurrent reads share one computation. */
  private readonly computing = new Map<string, Promise<unknown>>();

  constructor(
    private readonly maxAccounts = MAX_ACCOUNTS,
    private readonly maxFigures = MAX_FIGURES_PER_ACCOUNT,
  ) {}

  /** The accounts' revisions now, in one statement (accounts that do not exist are absent). */
  async revisions(sql: Sql, accountIds: readonly string[]): Promise<Map<string, number>> {
    if (accountIds.length === 0) return new Map();
    const rows = await sql.all<{ id: string; revision: number }>(
      `SELECT id, revision FROM ad_accounts WHERE id IN ${jsonValues(sql)}`,
      [JSON.stringify(accountIds)],
    );
    return new Map(rows.map((r) => [r.id, r.revision]));
  }

  /**
   * Each account's figure named by `key(accountId)`: the kept one where the account's revision has
   * not moved since, else computed by `compute` for all such accounts in one call. An account that
   * `compute` leaves out gets `absent`. Revisions must be read before the figures are computed, so a
   * figure is kept under a revision no newer than what it was computed from.
   */
  async each<T>(
    revisions: Revisions,
    key: string | ((accountId: string) => string),
    compute: (accountIds: string[]) => Promise<ReadonlyMap<string, T>>,
    absent: T,
  ): Promise<Map<string, T>> {
    const found = new Map<string, T>();
    /** Accounts to compute here, with their figure's name. */
    const missing = new Map<string, string>();
    const waiting: Array<Promise<void>> = [];
    for (const [accountId, revision] of revisions) {
      const name = typeof key === 'string' ? key : key(accountId);
      const kept = this.at(accountId, revision);
      const figure = kept?.figures.get(name);
      if (figure !== undefined || kept?.figures.has(name)) {
        found.set(accountId, figure as T);
        continue;
      }
      // Being computed for a concurrent read at this revision: wait for it rather than compute it again.
      const pending = this.computing.get(flight(accountId, revision, name));
      if (pending) waiting.push(pending.then((figure) => void found.set(accountId, figure as T)));
      else missing.set(accountId, name);
    }
    // All kept (the usual read): already in the revisions' order.
    if (missing.size === 0 && waiting.length === 0) return found;
    if (missing.size > 0) {
      const computing = compute([...missing.keys()]);
      const flights = [...missing].map(([accountId, name]) => {
        const id = flight(accountId, revisions.get(accountId) as number, name);
        const figure = computing.then((computed) => computed.get(accountId) ?? absent);
        figure.catch(() => {}); // a failure reaches the reads that wait on it, not the process
        this.computing.set(id, figure);
        return id;
      });
      try {
        const computed = await computing;
        for (const [accountId, name] of missing) {
          const figure = computed.get(accountId) ?? absent;
          found.set(accountId, figure);
          const kept = this.at(accountId, revisions.get(accountId) as number);
          if (!kept) continue;
          kept.figures.delete(name);
          if (kept.figures.size >= this.maxFigures)
            kept.figures.delete(kept.figures.keys().next().value as string);
          kept.figures.set(name, figure);
        }
      } finally {
        for (const id of flights) this.computing.delete(id);
      }
    }
    await Promise.all(waiting);
    // In the revisions' order, whichever way each figure came.
    const out = new Map<string, T>();
    for (const accountId of revisions.keys()) out.set(accountId, found.get(accountId) as T);
    return out;
  }

  /**
   * A figure of several accounts together (their days added date by date), named by `name`: the
   * kept one where the same accounts are at the same revisions, else computed by `compute`. A
   * workspace at rest then adds its 500 accounts' days once, not on every read; while one account
   * syncs, the figures of the others stay kept per account (`each`) and only the addition is redone.
   */
  async across<T>(
    revisions: Revisions,
    accountIds: readonly string[],
    name: string,
    compute: () => Promise<T>,
  ): Promise<T> {
    let at = '';
    for (const id of accountIds) at += `${id}\u0000${revisions.get(id) ?? -1}\u0000`;
    const kept = this.groups.get(name);
    this.groups.delete(name);
    if (kept && kept.at === at) {
      this.groups.set(name, kept);
      return kept.figure as T;
    }
    const figure = await compute();
    if (this.groups.size >= MAX_GROUP_FIGURES) this.groups.delete(this.groups.keys().next().value as string);
    this.groups.set(name, { at, figure });
    return figure;
  }

  /**
   * The account's entry at this revision, marked as read: emptied when the revision has moved since;
   * null when a concurrent read has already kept a newer one (left as it is).
   */
  private at(accountId: string, revision: number): Kept | null {
    const kept = this.kept.get(accountId);
    if (kept) {
      if (kept.revision > revision) return null;
      if (kept.revision !== revision) {
        kept.revision = revision;
        kept.figures = new Map();
      }
      kept.used = true;
      return kept;
    }
    if (this.kept.size >= this.maxAccounts) this.evictOne();
    const entry: Kept = { revision, figures: new Map(), used: true };
    this.kept.set(accountId, entry);
    return entry;
  }

  /** Drops the first account not read since eviction last passed; read ones go to the end, unmarked. */
  private evictOne(): void {
    for (const [accountId, kept] of this.kept) {
      this.kept.delete(accountId);
      if (!kept.used) return;
      kept.used = false;
      this.kept.set(accountId, kept);
    }
  }
}
