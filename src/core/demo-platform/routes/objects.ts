// /me, /me/adaccounts, object nodes and the campaigns/adsets/ads edges.

import { z } from 'zod';
import { invalidParameter, unknownObject, unknownPath } from '../errors';
import {
  accountObject,
  adObject,
  adSetObject,
  campaignObject,
  customConversionObject,
  parseFields,
  type FieldSpec,
} from '../fields';
import { parseList } from '../insights-query';
import { pageList, parseLimit } from '../paging';
import {
  adEffectiveStatus,
  adSetEffectiveStatus,
  campaignEffectiveStatus,
  EFFECTIVE_STATUSES,
  visibleByDefault,
} from '../world/status';
import type { Account, Ad, AdSet, Campaign, WorldNode } from '../world/types';
import { activitiesEdge } from './activities';
import { recommendationsEdge } from './recommendations';
import { linkFor, param, type RouteContext, type RouteResult } from './context';
import { systemUser } from './oauth';

export function resolveNode(ctx: RouteContext, id: string): WorldNode {
  const node = ctx.world.nodes.get(id);
  if (!node) throw unknownObject(id);
  return node;
}

export function accountOf(node: WorldNode): Account {
  switch (node.kind) {
    case 'account':
      return node.account;
    case 'campaign':
      return node.campaign.account;
    case 'adset':
      return node.adSet.campaign.account;
    case 'ad':
      return node.ad.adSet.campaign.account;
  }
}

function fieldsOr(ctx: RouteContext, fallback: string[]): FieldSpec[] {
  return parseFields(param(ctx, 'fields')) ?? fallback.map((name) => ({ name }));
}

export function me(ctx: RouteContext): RouteResult {
  const fields = fieldsOr(ctx, ['id', 'name']);
  const who = ctx.token && ctx.state.isSystemUser(ctx.token) ? systemUser(ctx) : ctx.world.user;
  const user: Record<string, unknown> = {};
  for (const f of fields) if (f.name === 'id' || f.name === 'name') user[f.name] = who[f.name];
  user.id = who.id;
  return { body: user };
}

/** `/me/businesses`: the Business Managers the user (or system user) belongs to. */
export function businesses(ctx: RouteContext): RouteResult {
  const fields = fieldsOr(ctx, ['id', 'name']);
  const page = pageList(ctx.world.businesses, (b) => b.id, pageRequest(ctx), linkFor(ctx));
  return {
    body: {
      ...page,
      data: page.data.map((b) => {
        const out: Record<string, unknown> = { id: b.id };
        if (fields.some((f) => f.name === 'name')) out.name = b.name;
        return out;
      }),
    },
  };
}

/** `/{business}/owned_ad_accounts` and `/{business}/client_ad_accounts`. */
export function businessAccounts(ctx: RouteContext, businessId: string, edgeName: string): RouteResult {
  const items =
    edgeName === 'owned_ad_accounts'
      ? ctx.world.accounts.filter((a) => a.business.id === businessId)
      : edgeName === 'client_ad_accounts'
        ? ctx.world.clientAccounts.filter((a) => a.clientOf?.id === businessId)
        : null;
  if (!items) throw unknownPath(edgeName);
  const fields = fieldsOr(ctx, ['account_id', 'id']);
  const page = pageList(items, (a) => a.accountId, pageRequest(ctx), linkFor(ctx));
  return { body: { ...page, data: page.data.map((a) => accountObject(ctx.model, a, fields)) } };
}

function pageRequest(ctx: RouteContext): { limit: number; after?: string; before?: string } {
  const req: { limit: number; after?: string; before?: string } = { limit: parseLimit(param(ctx, 'limit')) };
  const after = param(ctx, 'after');
  const before = param(ctx, 'before');
  if (after !== undefined) req.after = after;
  if (before !== undefined) req.before = before;
  return req;
}

export function permissions(): RouteResult {
  return {
    body: {
      data: ['ads_read', 'read_insights', 'business_management', 'public_profile'].map((permission) => ({
        permission,
        status: 'granted',
      })),
    },
  };
}

export function adAccounts(ctx: RouteContext): RouteResult {
  const fields = fieldsOr(ctx, ['account_id', 'id']);
  const limit = parseLimit(param(ctx, 'limit'));
  const page = pageList(
    ctx.world.accounts,
    (a) => a.accountId,
    { limit, after: param(ctx, 'after'), before: param(ctx, 'before') },
    linkFor(ctx),
  );
  return { body: { ...page, data: page.data.map((a) => accountObject(ctx.model, a, fields)) } };
}

export function node(ctx: RouteContext, n: WorldNode): RouteResult {
  const account = accountOf(n);
  ctx.usage = { accountId: account.accountId, kind: 'management' };
  switch (n.kind) {
    case 'account':
      return { body: accountObject(ctx.model, n.account, fieldsOr(ctx, ['account_id', 'id'])) };
    case 'campaign':
      return { body: campaignObject(ctx.model, n.campaign, fieldsOr(ctx, ['id', 'name'])) };
    case 'adset':
      return { body: adSetObject(ctx.model, n.adSet, fieldsOr(ctx, ['id', 'name'])) };
    case 'ad':
      return { body: adObject(ctx.model, n.ad, fieldsOr(ctx, ['id', 'name'])) };
  }
}

const objectFilterSchema = z.array(
  z.object({
    field: z.string(),
    operator: z.string(),
    value: z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))]),
  }),
);

interface EdgeFilter {
  statuses: Set<string> | null;
  updatedAfter: number | null;
}

function edgeFilter(ctx: RouteContext): EdgeFilter {
  let statuses: Set<string> | null = null;
  const listed = parseList(param(ctx, 'effective_status'), 'effective_status');
  if (listed) {
    listed.forEach((s, i) => {
      if (!EFFECTIVE_STATUSES.has(s))
        throw invalidParameter(
          `Param effective_status[${i}] must be one of {${[...EFFECTIVE_STATUSES].join(', ')}}`,
        );
    });
    statuses = new Set(listed);
  }
  let updatedAfter: number | null = null;
  const since = param(ctx, 'updated_since');
  if (since !== undefined) {
    const n = Number(since);
    if (!Number.isInteger(n) || n < 0) throw invalidParameter('Param updated_since must be a unix timestamp');
    updatedAfter = n;
  }
  const rawFiltering = param(ctx, 'filtering');
  if (rawFiltering) {
    let json: unknown;
    try {
      json = JSON.parse(rawFiltering);
    } catch {
      throw invalidParameter('filtering must be valid JSON');
    }
    const parsed = objectFilterSchema.safeParse(json);
    if (!parsed.success) throw invalidParameter('filtering must be an array of {field, operator, value}');
    for (const f of parsed.data) {
      const values = (Array.isArray(f.value) ? f.value : [f.value]).map(String);
      if (/(^|\.)effective_status$/.test(f.field) && ['IN', 'EQUAL'].includes(f.operator.toUpperCase())) {
        statuses = new Set(values);
      } else if (/(^|\.)updated_time$/.test(f.field) && f.operator.toUpperCase().startsWith('GREATER_THAN')) {
        updatedAfter = Number(values[0]);
      } else {
        throw invalidParameter(
          `Filtering field ${f.field} with operator ${f.operator} is not supported by the demo platform`,
        );
      }
    }
  }
  return { statuses, updatedAfter };
}

function keep(filter: EdgeFilter, status: string, updatedTime: number): boolean {
  if (filter.statuses ? !filter.statuses.has(status) : !visibleByDefault(status)) return false;
  return filter.updatedAfter === null || updatedTime >= filter.updatedAfter;
}

export function edge(ctx: RouteContext, n: WorldNode, name: string): RouteResult {
  const account = accountOf(n);
  ctx.usage = { accountId: account.accountId, kind: 'management' };
  const campaigns: Campaign[] =
    n.kind === 'account' ? account.campaigns : n.kind === 'campaign' ? [n.campaign] : [];
  const adSets: AdSet[] = n.kind === 'adset' ? [n.adSet] : campaigns.flatMap((c) => c.adSets);
  const filter = edgeFilter(ctx);
  const fields = fieldsOr(ctx, ['id']);
  const limit = parseLimit(param(ctx, 'limit'));
  const req = { limit, after: param(ctx, 'after'), before: param(ctx, 'before') };
  const link = linkFor(ctx);
  let page: { data: Array<Record<string, unknown>>; paging?: unknown };
  let total: number;
  if (name === 'campaigns' && n.kind === 'account') {
    const items = campaigns.filter((c) => keep(filter, campaignEffectiveStatus(c), c.updatedTime));
    total = items.length;
    const p = pageList(items, (c) => c.id, req, link);
    page = { ...p, data: p.data.map((c) => campaignObject(ctx.model, c, fields)) };
  } else if (name === 'adsets' && (n.kind === 'account' || n.kind === 'campaign')) {
    const items = adSets.filter((s) => keep(filter, adSetEffectiveStatus(s), s.updatedTime));
    total = items.length;
    const p = pageList(items, (s) => s.id, req, link);
    page = { ...p, data: p.data.map((s) => adSetObject(ctx.model, s, fields)) };
  } else if (name === 'ads' && n.kind !== 'ad') {
    const items: Ad[] = adSets
      .flatMap((s) => s.ads)
      .filter((ad) => keep(filter, adEffectiveStatus(ad), ad.updatedTime));
    total = items.length;
    const p = pageList(items, (ad) => ad.id, req, link);
    page = { ...p, data: p.data.map((ad) => adObject(ctx.model, ad, fields)) };
  } else if (name === 'activities' && n.kind === 'account') {
    return activitiesEdge(ctx, account);
  } else if (name === 'recommendations' && n.kind === 'account') {
    return recommendationsEdge(ctx, account);
  } else if (name === 'customconversions' && n.kind === 'account') {
    const items = campaigns.filter((c) => c.customConversion !== null);
    total = items.length;
    const p = pageList(items, (c) => c.customConversion?.id ?? c.id, req, link);
    page = {
      ...p,
      data: p.data.flatMap((c): Array<Record<string, unknown>> => {
        const object = customConversionObject(c, fieldsOr(ctx, ['id', 'name']));
        return object ? [object] : [];
      }),
    };
  } else {
    throw unknownPath(name);
  }
  const summary = param(ctx, 'summary') === 'true' ? { summary: { total_count: total } } : {};
  return { body: { ...page, ...summary } };
}
