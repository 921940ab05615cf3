import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApi, type TestApi } from '../../test-support/api-server';

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
});
afterAll(async () => {
  await t.close();
});

describe('GET /v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document covering every endpoint and error type', async () => {
    const res = await call(t.url, '/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body as {
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'GET /v1/accounts',
        'GET /v1/accounts/{id}',
        'POST /v1/accounts/{id}/sync',
        'GET /v1/campaigns',
        'GET /v1/campaigns/{id}',
        'GET /v1/diagnostics',
        'GET /v1/diagnostics/{id}',
        'POST /v1/diagnostics',
        'GET /v1/reports',
        'POST /v1/reports',
        'GET /v1/reports/{id}/download',
        'GET /v1/insights/summary',
        'GET /v1/events',
      ]),
    );
    const statuses = new Set(
      Object.values(doc.paths).flatMap((ops) =>
        Object.values(ops).flatMap((op) => Object.keys(op.responses)),
      ),
    );
    for (const status of ['200', '202', '400', '401', '403', '404', '409', '422', '429', '500']) {
      expect(statuses.has(status), status).toBe(true);
    }
  });
  it('documents query parameters from the validating schemas', async () => {
    const doc = (await call(t.url, '/v1/openapi.json')).body as {
      paths: Record<string, Record<string, { parameters: Array<{ name: string; in: string }> }>>;
    };
    const names = (path: string, method = 'get') => doc.paths[path]?.[method]?.parameters.map((p) => p.name);
    expect(names('/v1/campaigns')).toEqual(
      expect.arrayContaining(['account_id', 'status', 'sort', 'page', 'page_size']),
    );
    expect(names('/v1/campaigns/{id}')).toEqual(
      expect.arrayContaining(['id', 'include', 'insightsDateRange']),
    );
    expect(names('/v1/reports')).toEqual(expect.arrayContaining(['campaignId', 'accountId', 'from', 'to']));
    expect(names('/v1/insights/summary')).toEqual(
      expect.arrayContaining(['date_start', 'date_end', 'account_id', 'campaign_ids']),
    );
  });
});
