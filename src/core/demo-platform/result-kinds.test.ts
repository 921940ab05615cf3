// The demo platform's result kinds, custom conversions and world controls (setStatus, attributeLate).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateWorld, resultTruth, startDemoPlatform, type DemoPlatform } from './index';
import { allPages, graphGet, type Row } from '../../test-support/demo-platform-util';

const today = '2026-11-22';
let p: DemoPlatform;
let eur: string;

beforeEach(async () => {
  p = await startDemoPlatform({ seed: 1, today, largeAccountCampaigns: 20 });
  const accounts = await graphGet(p, '/me/adaccounts', { fields: 'id,currency' });
  eur = (accounts.body.data as Array<{ id: string; currency: string }>).find((a) => a.currency === 'EUR')!.id;
});
afterEach(() => p.close());

const adSetsOf = async (campaignId: string) =>
  (
    await graphGet(p, `/${campaignId}/adsets`, {
      fields: 'id,optimization_goal,promoted_object,destination_type,attribution_spec,learning_stage_info',
    })
  ).body.data as Row[];

describe('result kinds', () => {
  it('every account has lead-gen, app-install, custom-conversion and traffic campaigns with their shapes', async () => {
    const world = generateWorld({ seed: 1, today, largeAccountCampaigns: 20 });
    for (const account of world.accounts) {
      // The first four campaigns without a problem (when an account has four) take these kinds.
      if (account.campaigns.filter((c) => c.scenario === null).length < 4) continue;
      const kinds = new Set(account.campaigns.map((c) => c.resultKind));
      for (const kind of ['LEAD_FORM', 'APP_INSTALL', 'CUSTOM_CONVERSION', 'LANDING_PAGE_VIEW'])
        expect(kinds.has(kind as never), `${account.name} ${kind}`).toBe(true);
      // Problem campaigns stay purchase campaigns: ground truth is untouched.
      for (const c of account.campaigns) if (c.scenario) expect(c.resultKind).toBe('PURCHASE');
    }
    const campaigns = (await graphGet(p, `/${eur}/campaigns`, { fields: 'id,objective', limit: '100' })).body
      .data as Array<{ id: string; objective: string }>;
    const byObjective = (objective: string) => campaigns.find((c) => c.objective === objective)!;
    const leads = (await adSetsOf(byObjective('OUTCOME_LEADS').id))[0]!;
    expect(leads).toMatchObject({ optimization_goal: 'LEAD_GENERATION', destination_type: 'ON_AD' });
    const app = (await adSetsOf(byObjective('OUTCOME_APP_PROMOTION').id))[0]!;
    expect(app.optimization_goal).toBe('APP_INSTALLS');
    expect(app.promoted_object).toHaveProperty('application_id');
  });

  it('reports a custom conversion under offsite_conversion.custom.<id>, named by the customconversions edge', async () => {
    const world = generateWorld({ seed: 1, today, largeAccountCampaigns: 20 });
    const campaign = world.accounts
      .find((a) => `act_${a.accountId}` === eur)!
      .campaigns.find((c) => c.resultKind === 'CUSTOM_CONVERSION' && c.status === 'ACTIVE')!;
    const conversion = campaign.customConversion!;
    const named = (await graphGet(p, `/${eur}/customconversions`, { fields: 'id,name' })).body.data as Row[];
    expect(named).toContainEqual({ id: conversion.id, name: conversion.name });
    const rows = await allPages(p, `/${campaign.id}/insights`, {
      level: 'campaign',
      fields: 'actions,action_values',
      time_range: JSON.stringify({ since: '2026-11-01', until: '2026-11-07' }),
      time_increment: '1',
    });
    let results = 0;
    for (const row of rows) {
      const actions = row.actions as Array<{ action_type: string; value: string }>;
      expect(actions.some((a) => a.action_type === 'omni_purchase')).toBe(false);
      results += Number(
        actions.find((a) => a.action_type === `offsite_conversion.custom.${conversion.id}`)?.value ?? 0,
      );
    }
    expect(results).toBe(
      resultTruth({ seed: 1, today, largeAccountCampaigns: 20 }, campaign.id, '2026-11-01', '2026-11-07')
        .results,
    );
  });
});

describe('world controls', () => {
  it('setStatus archives an ad set: gone from the default edge, listed with effective_status, updated now', async () => {
    const campaigns = (await graphGet(p, `/${eur}/campaigns`, { fields: 'id', limit: '1' })).body
      .data as Row[];
    const adSet = (await adSetsOf(campaigns[0]!.id as string))[0]!;
    const before = Math.floor(Date.now() / 1000);
    p.controls.setStatus(adSet.id as string, 'ARCHIVED');
    const visible = (await graphGet(p, `/${eur}/adsets`, { fields: 'id', limit: '500' })).body.data as Row[];
    expect(visible.map((s) => s.id)).not.toContain(adSet.id);
    const all = (
      await graphGet(p, `/${eur}/adsets`, {
        fields: 'id,effective_status,learning_stage_info',
        limit: '500',
        effective_status: JSON.stringify(['ACTIVE', 'PAUSED', 'ARCHIVED', 'DELETED']),
        updated_since: String(before),
      })
    ).body.data as Row[];
    expect(all).toEqual([{ id: adSet.id, effective_status: 'ARCHIVED' }]);
  });

  it('attributeLate adds results to one day at every level, coherently', async () => {
    const world = generateWorld({ seed: 1, today, largeAccountCampaigns: 20 });
    const campaign = world.accounts
      .find((a) => `act_${a.accountId}` === eur)!
      .campaigns.find((c) => c.resultKind === 'PURCHASE' && c.status === 'ACTIVE')!;
    const adSet = campaign.adSets.find((s) => s.status === 'ACTIVE')!;
    const day = '2026-11-02';
    const purchases = async (level: string) => {
      const rows = await allPages(p, `/${campaign.id}/insights`, {
        level,
        fields: 'actions',
        time_range: JSON.stringify({ since: day, until: day }),
      });
      return rows.reduce((sum, row) => {
        const actions = (row.actions ?? []) as Array<{ action_type: string; value: string }>;
        return sum + Number(actions.find((a) => a.action_type === 'omni_purchase')?.value ?? 0);
      }, 0);
    };
    const before = {
      campaign: await purchases('campaign'),
      adSet: await purchases('adset'),
      ad: await purchases('ad'),
    };
    p.controls.attributeLate(adSet.id, day, 4);
    expect(await purchases('campaign')).toBe(before.campaign + 4);
    expect(await purchases('adset')).toBe(before.adSet + 4);
    expect(await purchases('ad')).toBe(before.ad + 4);
  });
});
