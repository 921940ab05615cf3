// Discovering what a token reaches, the way Business Manager shows it: the user's own ad accounts
// (/me/adaccounts), and for each business (/me/businesses) its owned and client ad accounts. An account
// seen several ways is listed once, under its business, with the closest relation (OWNED, then CLIENT,
// then PERSONAL).
import type { AvailableAccount, AvailableAccountGroup } from '../../shared/api/available-accounts';
import { GraphError } from '../platform/errors';
import type { GraphClient } from '../platform/graph-client';
import { accountStatus, connectRefusal, type PlatformAdAccount } from '../platform/parse';

type Relation = AvailableAccount['relation'];
const RANK: Record<Relation, number> = { OWNED: 0, CLIENT: 1, PERSONAL: 2 };

interface Found {
  account: PlatformAdAccount;
  relation: Relation;
  via: { id: string; name: string } | null;
}

export interface Discovery {
  groups: AvailableAccountGroup[];
  total: number;
  warnings: string[];
}

async function collect(pages: AsyncGenerator<PlatformAdAccount[]>): Promise<PlatformAdAccount[]> {
  const out: PlatformAdAccount[] = [];
  for await (const page of pages) out.push(...page);
  return out;
}

/** A listing the token may not be allowed (no business_management, a business it left): skipped, said. */
function skippable(error: unknown): error is GraphError {
  return (
    error instanceof GraphError &&
    (error.kind === 'permission' || error.kind === 'invalid_request' || error.kind === 'not_found')
  );
}

export async function discoverAccounts(client: GraphClient, connected: Set<string>): Promise<Discovery> {
  const found = new Map<string, Found>();
  const warnings: string[] = [];
  const add = (account: PlatformAdAccount, relation: Relation, via: Found['via']): void => {
    const seen = found.get(account.id);
    if (!seen || RANK[relation] < RANK[seen.relation]) found.set(account.id, { account, relation, via });
  };

  const order: Array<{ id: string; name: string }> = [];
  try {
    for await (const page of client.listBusinesses()) {
      for (const business of page) order.push({ id: business.id, name: business.name });
    }
  } catch (error) {
    if (!skippable(error)) throw error;
    warnings.push(
      `businesses could not be listed (${error.message}); only the token's own ad accounts are shown`,
    );
  }
  for (const business of order) {
    for (const relation of ['owned', 'client'] as const) {
      try {
        const accounts = await collect(client.listBusinessAdAccounts(business.id, relation));
        for (const account of accounts) add(account, relation === 'owned' ? 'OWNED' : 'CLIENT', business);
      } catch (error) {
        if (!skippable(error)) throw error;
        warnings.push(`${relation} ad accounts of ${business.name} could not be listed (${error.message})`);
      }
    }
  }
  for (const account of await collect(client.listAdAccounts())) {
    add(
      account,
      'PERSONAL',
      account.business ? { id: account.business.id, name: account.business.name } : null,
    );
  }

  const groups = new Map<string, AvailableAccountGroup>();
  const groupOf = (via: Found['via']): AvailableAccountGroup => {
    const key = via?.id ?? '';
    let group = groups.get(key);
    if (!group) {
      group = { business: via, accounts: [] };
      groups.set(key, group);
    }
    return group;
  };
  // Businesses in the platform's order, then those only seen on personal accounts, then no business.
  for (const business of order) groupOf(business);
  for (const { account, relation, via } of found.values()) {
    const reason = connectRefusal(account);
    groupOf(via).accounts.push({
      platformAccountId: account.id,
      name: account.name,
      currency: account.currency.toUpperCase(),
      timezone: account.timezone_name,
      status: accountStatus(account.account_status),
      relation,
      business: account.business ? { id: account.business.id, name: account.business.name } : null,
      tasks: account.user_tasks ?? [],
      canConnect: reason === null,
      reason,
      connected: connected.has(account.id),
    });
  }
  const list = [...groups.values()].filter((group) => group.accounts.length > 0);
  for (const group of list)
    group.accounts.sort((a, b) => RANK[a.relation] - RANK[b.relation] || a.name.localeCompare(b.name));
  list.sort((a, b) => Number(a.business === null) - Number(b.business === null));
  return { groups: list, total: found.size, warnings };
}
