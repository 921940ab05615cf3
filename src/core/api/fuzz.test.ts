// Property tests: arbitrary query strings, bodies and headers thrown at every route never produce a
// 500 and never change stored data.
import fc from 'fast-check';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedScenario, type Scenario } from '../../test-support/api-scenario';
import { seedKey, storeChecksum } from '../../test-support/api-fixtures';
import { startTestApi, type TestApi } from '../../test-support/api-server';

let t: TestApi;
let s: Scenario;
let key: string;
let before: string;

beforeAll(async () => {
  t = await startTestApi();
  s = await seedScenario(t.core.db, t.clock);
  key = (
    await seedKey(t.core.db, t.clock, {
      workspaceId: s.a.workspaceId,
      limitOverrides: { reads: 1e9, writes: 1e9, diagnostics: 1e9, reports: 1e9 },
    })
  ).key;
  before = storeChecksum(t.core.db);
});
afterAll(async () => {
  await t.close();
});

function raw(method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(`${t.url}${path}`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const KNOWN_PARAMS = [
  'page',
  'page_size',
  'status',
  'account_id',
  'campaign_id',
  'campaign_ids',
  'sort',
  'include',
  'insightsDateRange',
  'date_start',
  'date_end',
  'risk_level',
  'campaignId',
  'accountId',
  'format',
  'from',
  'to',
  'expires',
  'signature',
];

const value = () =>
  fc.oneof(
    fc.string(),
    fc.integer().map(String),
    fc.constantFrom(
      '0',
      '-1',
      '101',
      '1e3',
      '2026-02-30',
      '2026-03-01',
      '9999-99-99',
      'act_123',
      'camp_AAAAAAAAAAAAAAAA',
      'ACTIVE',
      'adSets,ads',
      'lifetime',
      '-spend',
      'pdf',
      '%',
      '%zz',
      '',
    ),
  );

const queryString = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...KNOWN_PARAMS), fc.string({ maxLength: 8 })), value()), {
    maxLength: 5,
  })
  .chain((pairs) =>
    fc
      .boolean()
      .map((rawEncoding) =>
        pairs
          .map(([k, v]) =>
            rawEncoding
              ? `${encodeURIComponent(k)}=${v.replace(/[^\x21-\x7e]/g, '_')}`
              : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`,
          )
          .join('&'),
      ),
  );

const headers = fc.record(
  {
    'content-type': fc.constantFrom(
      'application/json',
      'text/plain',
      'application/json; charset=utf-8',
      'application/x-www-form-urlencoded',
      '',
    ),
    'service-version': fc.constantFrom('2026-03-01', '2025-01-01', 'latest', ''),
  },
  { requiredKeys: [] },
);

const bodyFields = [
  'account_id',
  'campaign_id',
  'campaign_ids',
  'date_start',
  'date_end',
  'title',
  'format',
  'whiteLabel',
];
const body = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string(),
  fc
    .dictionary(
      fc.oneof(fc.constantFrom(...bodyFields), fc.string({ maxLength: 6 })),
      fc.oneof(value(), fc.jsonValue()),
    )
    .map((o) => JSON.stringify(o)),
  fc.constant('{"account_id":'),
);

const pathId = fc.oneof(
  fc.constantFrom(
    'act_123',
    'camp_AAAAAAAAAAAAAAAA',
    'diag_AAAAAAAAAAAAAAAA',
    'rpt_AAAAAAAAAAAAAAAA',
    '%',
    '..',
    '',
  ),
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
);

const ROUTES: Array<{ method: string; path: (id: string) => string }> = [
  { method: 'GET', path: () => '/v1/accounts' },
  { method: 'GET', path: (id) => `/v1/accounts/${id}` },
  { method: 'POST', path: (id) => `/v1/accounts/${id}/sync` },
  { method: 'GET', path: () => '/v1/campaigns' },
  { method: 'GET', path: (id) => `/v1/campaigns/${id}` },
  { method: 'GET', path: () => '/v1/diagnostics' },
  { method: 'GET', path: (id) => `/v1/diagnostics/${id}` },
  { method: 'POST', path: () => '/v1/diagnostics' },
  { method: 'GET', path: () => '/v1/reports' },
  { method: 'POST', path: () => '/v1/reports' },
  { method: 'GET', path: (id) => `/v1/reports/${id}/download` },
  { method: 'GET', path: () => '/v1/insights/summary' },
];

describe('arbitrary requests', () => {
  for (const route of ROUTES) {
    it(`${route.method} ${route.path('{id}')}: never 500, never a change to stored data`, async () => {
      await fc.assert(
        fc.asyncProperty(
          pathId,
          queryString,
          headers,
          body,
          fc.boolean(),
          async (id, query, hdrs, payload, withKey) => {
            const h: Record<string, string> = { ...hdrs };
            if (withKey) h['x-api-key'] = key;
            else h['x-api-key'] = 'service_live_' + 'x'.repeat(32);
            const res = await raw(
              route.method,
              `${route.path(id)}${query ? `?${query}` : ''}`,
              h,
              route.method === 'POST' ? payload : undefined,
            );
            expect(res.status, res.text).not.toBe(500);
            expect(res.status).toBeGreaterThanOrEqual(200);
            const parsed = JSON.parse(res.text) as { error?: { type: string; message: string } };
            if (res.status >= 400) expect(typeof parsed.error?.type).toBe('string');
          },
        ),
        { numRuns: 120 },
      );
      expect(storeChecksum(t.core.db)).toBe(before);
    });
  }
});
