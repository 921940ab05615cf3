// The demo platform's activity log and delivery blockers: ad review outcomes with issues_info, a spend
// cap near the amount spent, the disabled account's reason, and the two world controls behind them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateWorld, startDemoPlatform, type DemoPlatform } from './index';
import { allPages, graphGet, type Row } from '../../test-support/demo-platform-util';

const today = '2026-11-22';
const opts = { seed: 1, today, largeAccountCampaigns: 20 };
let p: DemoPlatform;
let accounts: Row[];

beforeEach(async () => {
  p = await startDemoPlatform(opts);
  accounts = (
    await graphGet(p, '/me/adaccounts', {
      fields: 'id,currency,account_status,disable_reason,spend_cap,amount_spent',
    })
  ).body.data as Row[];
});
afterEach(() => p.close());

const FIELDS = 'event_type,event_time,actor_id,actor_name,object_id,object_name,object_type,extra_data';

describe('activity log', () => {
  it('pages newest first through every event, filters by since/until, and agrees with the world', async () => {
    const eur = accounts.find((a) => a.currency === 'EUR')!.id as string;
    const all = await allPages(p, `/${eur}/activities`, { fields: FIELDS, limit: '50' });
    expect(all.length).toBeGreaterThan(50);
    const times = all.map((a) => Date.parse(String(a.event_time).replace(/(\d{2})(\d{2})$/, '$1:$2')));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const types = new Set(all.map((a) => a.event_type));
    for (const t of ['create_ad', 'update_ad_set_budget', 'update_ad_run_status']) expect(types).toContain(t);
    for (const a of all) {
      expect(a.actor_name).toEqual(expect.any(String));
      expect(() => JSON.parse(String(a.extra_data))).not.toThrow();
    }
    // A learning-stall budget cut appears as a budget edit of its ad set, on its day, old → new.
    const world = generateWorld(opts);
    const cut = world.accounts
      .flatMap((a) => a.campaigns.flatMap((c) => c.adSets))
      .find((s) => s.campaign.account.currency === 'EUR' && s.budgetChangeDay !== null);
    if (cut) {
      const edit = all.find((a) => a.object_id === cut.id && a.event_type === 'update_ad_set_budget');
      expect(JSON.parse(String(edit?.extra_data))).toMatchObject({
        old_value: { amount: cut.previousBudgetMinor },
        new_value: { amount: cut.dailyBudgetMinor },
      });
    }
    const since = Math.floor(Date.parse(`${today}T00:00:00Z`) / 1000) - 30 * 86_400;
    const recent = await allPages(p, `/${eur}/activities`, { fields: FIELDS, since: String(since) });
    expect(recent.length).toBeLessThan(all.length);
    expect(recent).toEqual(all.filter((_, i) => times[i]! >= since * 1000));
  });

  it('is the same log for the same seed', async () => {
    const id = accounts[0]!.id as string;
    const first = await allPages(p, `/${id}/activities`, { fields: FIELDS, limit: '500' });
    const second = await allPages(p, `/${id}/activities`, { fields: FIELDS, limit: '37' });
    expect(second).toEqual(first);
  });
});

describe('delivery blockers', () => {
  it('some ads are DISAPPROVED or WITH_ISSUES with issues_info; the others have none', async () => {
    const gbp = accounts.find((a) => a.currency === 'GBP')!.id as string;
    const ads = await allPages(p, `/${gbp}/ads`, { fields: 'id,effective_status,issues_info', limit: '500' });
    const declined = ads.filter((a) => a.effective_status === 'DISAPPROVED');
    const limited = ads.filter((a) => a.effective_status === 'WITH_ISSUES');
    expect(declined.length).toBeGreaterThan(0);
    expect(limited.length).toBeGreaterThan(0);
    expect((declined[0]!.issues_info as Row[])[0]).toMatchObject({
      error_code: expect.any(Number),
      error_summary: expect.any(String),
      error_message: expect.any(String),
      level: 'AD',
    });
    expect(
      ads.filter((a) => a.effective_status === 'ACTIVE').every((a) => (a.issues_info as Row[]).length === 0),
    ).toBe(true);
  });

  it('one account has a spend cap just above its amount spent; the disabled one says why', () => {
    const gbp = accounts.find((a) => a.currency === 'GBP')!;
    const cap = Number(gbp.spend_cap);
    const spent = Number(gbp.amount_spent);
    expect(cap).toBeGreaterThan(spent);
    expect(cap).toBeLessThan(spent * 1.05);
    const disabled = accounts.find((a) => a.account_status === 2)!;
    expect(disabled.disable_reason).toBe(3);
    expect(accounts.filter((a) => a !== gbp).every((a) => a.spend_cap === '0')).toBe(true);
  });

  it('controls: a disapproved ad stops delivering; a reached cap stops the account', async () => {
    const usd = accounts.find((a) => a.currency === 'USD' && a.account_status === 1)!.id as string;
    const ad = (await allPages(p, `/${usd}/ads`, { fields: 'id,effective_status', limit: '500' })).find(
      (a) => a.effective_status === 'ACTIVE',
    )!;
    p.controls.disapproveAd(String(ad.id), '2026-11-15');
    const after = (await graphGet(p, `/${String(ad.id)}`, { fields: 'effective_status,issues_info' })).body;
    expect(after.effective_status).toBe('DISAPPROVED');
    const days = (
      await graphGet(p, `/${String(ad.id)}/insights`, {
        fields: 'spend',
        time_increment: '1',
        time_range: JSON.stringify({ since: '2026-11-15', until: today }),
      })
    ).body.data as Row[];
    expect(days.every((d) => Number(d.spend ?? 0) === 0)).toBe(true);
    const log = await allPages(p, `/${usd}/activities`, { fields: FIELDS, limit: '500' });
    expect(log.some((a) => a.object_id === ad.id && a.event_type === 'ad_review_declined')).toBe(true);

    p.controls.reachSpendCap(usd, '2026-11-18');
    const account = (await graphGet(p, `/${usd}`, { fields: 'spend_cap,amount_spent' })).body;
    expect(account.spend_cap).toBe(account.amount_spent);
  });
});
