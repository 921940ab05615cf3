import { describe, expect, it } from 'vitest';
import { insightMetrics, insightRowSchema } from './parse';
import { campaignResult, resultAliases, resultName, resultOf } from './results';

const row = (extra: Record<string, unknown>) =>
  insightRowSchema.parse({ date_start: '2026-02-01', date_stop: '2026-02-01', ...extra });

describe('results as Ads Manager counts them', () => {
  it('reads the result from the optimization goal and promoted object', () => {
    expect(resultOf('OFFSITE_CONVERSIONS', { pixel_id: '1', custom_event_type: 'PURCHASE' })).toEqual({
      type: 'PURCHASE',
      detail: null,
    });
    expect(
      resultOf('OFFSITE_CONVERSIONS', {
        pixel_id: '1',
        custom_conversion_id: '77',
        custom_event_type: 'OTHER',
      }),
    ).toEqual({ type: 'CUSTOM_CONVERSION', detail: '77' });
    expect(resultOf('APP_INSTALLS', { application_id: '9' }).type).toBe('APP_INSTALL');
    expect(resultOf('OFFSITE_CONVERSIONS', { application_id: '9', custom_event_type: 'PURCHASE' })).toEqual({
      type: 'APP_EVENT',
      detail: 'PURCHASE',
    });
    expect(resultOf('LEAD_GENERATION', { page_id: '5' }).type).toBe('LEAD_FORM');
    expect(resultOf('LANDING_PAGE_VIEWS', null).type).toBe('LANDING_PAGE_VIEW');
    expect(resultOf('LINK_CLICKS', null).type).toBe('LINK_CLICK');
    expect(resultOf('CONVERSATIONS', { page_id: '5' }).type).toBe('MESSAGING_CONVERSATION');
    expect(resultOf('THRUPLAY', null).type).toBe('THRUPLAY');
    expect(resultOf('QUALITY_LEAD', null).type).toBe('QUALITY_LEAD');
    expect(resultOf('OFFSITE_CONVERSIONS', { custom_event_type: 'SUBSCRIBE' }).type).toBe('SUBSCRIBE');
    expect(resultOf('OFFSITE_CONVERSIONS', { custom_event_type: 'CONTACT' }).type).toBe('CONTACT');
    expect(resultOf('OFFSITE_CONVERSIONS', { custom_event_type: 'SCHEDULE' })).toEqual({
      type: 'PIXEL_EVENT',
      detail: 'SCHEDULE',
    });
    // Nothing to count: unknown, never a guess.
    expect(resultOf('REACH', null).type).toBe('UNKNOWN');
    expect(resultOf('OFFSITE_CONVERSIONS', {}).type).toBe('UNKNOWN');
  });

  it('counts one alias per event, never the sum, preferring omni_*', () => {
    const leads = insightMetrics(
      row({
        actions: [
          { action_type: 'lead', value: '9' },
          { action_type: 'leadgen_grouped', value: '9' },
          { action_type: 'onsite_conversion.lead_grouped', value: '9' },
        ],
      }),
      { type: 'LEAD_FORM', detail: null },
    );
    expect(leads.conversions).toBe(9);
    const installs = insightMetrics(
      row({
        actions: [
          { action_type: 'mobile_app_install', value: '4' },
          { action_type: 'omni_app_install', value: '5' },
        ],
      }),
      { type: 'APP_INSTALL', detail: null },
    );
    expect(installs.conversions).toBe(5);
    const custom = insightMetrics(
      row({
        actions: [
          { action_type: 'offsite_conversion.custom.77', value: '3' },
          { action_type: 'omni_purchase', value: '8' },
        ],
        action_values: [{ action_type: 'offsite_conversion.custom.77', value: '120.50' }],
      }),
      { type: 'CUSTOM_CONVERSION', detail: '77' },
    );
    expect(custom).toMatchObject({ conversions: 3, revenueMicros: 120_500_000 });
    expect(resultAliases({ type: 'SUBSCRIBE', detail: null })[0]).toBe('omni_subscribe');
  });

  it('names results as Ads Manager does and merges a campaign’s ad sets', () => {
    expect(resultName({ type: 'LEAD_FORM', detail: null })).toBe('Leads (form)');
    expect(resultName({ type: 'CUSTOM_CONVERSION', detail: '77' }, 'Booked call')).toBe(
      'Custom conversion: Booked call',
    );
    const lead = { type: 'LEAD_FORM', detail: null } as const;
    expect(campaignResult([lead, lead])).toEqual(lead);
    expect(campaignResult([lead, { type: 'PURCHASE', detail: null }])?.type).toBe('MIXED');
    expect(campaignResult([])).toBeNull();
  });

  it('reads link clicks beside all clicks', () => {
    expect(insightMetrics(row({ clicks: '250', inline_link_clicks: '180' }), null)).toMatchObject({
      clicks: 250,
      linkClicks: 180,
    });
  });
});
