import { afterEach, describe, expect, it } from 'vitest';
import { ReportsService } from './service';
import { harness, manualClock, TINY_PNG, type Harness } from '../../test-support/reports-harness';
import { signDownload, signingSecret } from './signing';

const RANGE = { dateFrom: '2026-03-01', dateTo: '2026-03-31' };
let h: Harness | undefined;
let s: ReportsService | undefined;

afterEach(async () => {
  await s?.stop();
  h?.cleanup();
  h = undefined;
  s = undefined;
});

function setup(opts: Parameters<typeof harness>[0] = {}): { h: Harness; s: ReportsService } {
  h = harness(opts);
  s = new ReportsService(h.core);
  s.setBaseUrl('http://127.0.0.1:9');
  return { h, s };
}

function linkOf(url: string | null): { expires: string; signature: string } {
  const u = new URL(url ?? 'http://x/');
  return { expires: u.searchParams.get('expires') ?? '', signature: u.searchParams.get('signature') ?? '' };
}

describe('report creation errors', () => {
  it('refuses more than 20 campaign IDs with too_many_campaigns', async () => {
    const { h, s } = setup({ campaigns: 21 });
    await expect(
      s.create(h.ctx, {
        accountId: h.fixture.accountId,
        title: 'Too many',
        campaignIds: h.fixture.campaignIds,
        ...RANGE,
      }),
    ).rejects.toThrow(expect.objectContaining({ type: 'too_many_campaigns' }));
    // Exactly 20 is fine.
    const ok = await s.create(h.ctx, {
      accountId: h.fixture.accountId,
      title: 'Twenty',
      format: 'json',
      campaignIds: h.fixture.campaignIds.slice(0, 20),
      ...RANGE,
    });
    expect(ok.status).toBe('generating');
  });

  it.each(['trial', 'pro'] as const)(
    'refuses white-label on the %s plan with white_label_not_available',
    async (plan) => {
      const { h, s } = setup({ plan });
      await expect(
        s.create(h.ctx, {
          accountId: h.fixture.accountId,
          title: 'WL',
          whiteLabel: { companyName: 'Acme' },
          ...RANGE,
        }),
      ).rejects.toThrow(expect.objectContaining({ type: 'white_label_not_available' }));
      await expect(
        s.schedule(h.ctx, {
          accountId: h.fixture.accountId,
          title: 'WL',
          cadence: 'weekly',
          whiteLabel: { companyName: 'Acme' },
        }),
      ).rejects.toThrow(expect.objectContaining({ type: 'white_label_not_available' }));
    },
  );

  it('validates the white-label logo, colour and lengths', async () => {
    const { h, s } = setup();
    const create = (whiteLabel: Record<string, unknown>) => () =>
      s.create(h.ctx, {
        accountId: h.fixture.accountId,
        title: 'WL',
        whiteLabel: whiteLabel as { companyName: string },
        ...RANGE,
      });
    const jpegBytesAsPng = `data:image/png;base64,${Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]).toString('base64')}`;
    const big = `data:image/png;base64,${Buffer.concat([Buffer.from(TINY_PNG.split(',')[1] ?? '', 'base64'), Buffer.alloc(257 * 1024)]).toString('base64')}`;
    for (const bad of [
      { companyName: 'A', logo: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' },
      { companyName: 'A', logo: jpegBytesAsPng },
      { companyName: 'A', logo: big },
      { companyName: 'A', logo: 'https://example.com/logo.png' },
      { companyName: 'A', primaryColor: 'red' },
      { companyName: 'x'.repeat(101) },
      { companyName: 'A', footerText: 'y'.repeat(201) },
      { companyName: 'A', extra: true },
    ]) {
      await expect(create(bad)(), JSON.stringify(bad).slice(0, 80)).rejects.toThrow(
        expect.objectContaining({ type: 'invalid_request' }),
      );
    }
    expect(
      await create({ companyName: 'A', logo: TINY_PNG, primaryColor: '#112233', footerText: 'f' })(),
    ).toMatchObject({
      status: 'generating',
    });
  });

  it('answers not_found for campaigns and accounts outside the account or workspace', async () => {
    const { h, s } = setup();
    const base = { title: 'X', ...RANGE };
    await expect(
      s.create(h.ctx, { ...base, accountId: h.fixture.accountId, campaignIds: [h.fixture.other.campaignId] }),
    ).rejects.toThrow(expect.objectContaining({ type: 'not_found' }));
    await expect(
      s.create(h.ctx, { ...base, accountId: h.fixture.accountId, campaignIds: ['camp_DoesNotExist0000'] }),
    ).rejects.toThrow(expect.objectContaining({ type: 'not_found' }));
    await expect(s.create(h.ctx, { ...base, accountId: h.fixture.other.accountId })).rejects.toThrow(
      expect.objectContaining({ type: 'not_found' }),
    );
    await expect(
      s.create({ ...h.ctx, mode: 'live' }, { ...base, accountId: h.fixture.accountId }),
    ).rejects.toThrow(expect.objectContaining({ type: 'not_found' }));
  });

  it('checks the date range: start after end, or longer than 90 days', async () => {
    const { h, s } = setup();
    const base = { accountId: h.fixture.accountId, title: 'X' };
    await expect(s.create(h.ctx, { ...base, dateFrom: '2026-03-31', dateTo: '2026-03-01' })).rejects.toThrow(
      expect.objectContaining({ type: 'invalid_date_range' }),
    );
    await expect(s.create(h.ctx, { ...base, dateFrom: '2025-12-01', dateTo: '2026-03-31' })).rejects.toThrow(
      expect.objectContaining({ type: 'invalid_date_range' }),
    );
    await expect(s.create(h.ctx, { ...base, dateFrom: '2026-02-30', dateTo: '2026-03-31' })).rejects.toThrow(
      expect.objectContaining({ type: 'invalid_request' }),
    );
  });
});

describe('download errors (all 404 not_found)', () => {
  it('refuses a report not yet completed, a bad signature, another workspace and an expired link', async () => {
    const clock = manualClock('2026-04-01T09:00:00.000Z');
    const { h, s } = setup({ clock });
    const created = await s.create(h.ctx, {
      accountId: h.fixture.accountId,
      title: 'Links',
      format: 'markdown',
      ...RANGE,
    });
    // Not completed yet: even a correctly signed link for it is refused.
    const early = Math.floor(Date.now() / 1000) + 3600;
    const earlyLink = {
      expires: String(early),
      signature: signDownload(await signingSecret(h.core.sql), created.id, early),
    };
    await expect(s.download(h.ctx, created.id, earlyLink)).rejects.toThrow(
      expect.objectContaining({ type: 'not_found', message: expect.stringContaining('not completed') }),
    );

    const report = await s.waitFor(h.ctx, created.id);
    const link = linkOf(report.downloadUrl);
    expect((await s.download(h.ctx, created.id, link)).body.length).toBeGreaterThan(100);

    const flipped = `${link.signature.slice(0, -1)}${link.signature.endsWith('0') ? '1' : '0'}`;
    await expect(s.download(h.ctx, created.id, { ...link, signature: flipped })).rejects.toThrow(
      expect.objectContaining({ type: 'not_found', message: expect.stringContaining('signature') }),
    );
    // A later expiry with the old signature does not verify either.
    await expect(
      s.download(h.ctx, created.id, { ...link, expires: String(Number(link.expires) + 86_400) }),
    ).rejects.toThrow(
      expect.objectContaining({ type: 'not_found', message: expect.stringContaining('signature') }),
    );
    const otherCtx = { ...h.ctx, workspaceId: h.fixture.other.workspaceId };
    await expect(s.download(otherCtx, created.id, link)).rejects.toThrow(
      expect.objectContaining({ type: 'not_found' }),
    );
    expect(await s.get(otherCtx, created.id)).toBeUndefined();
    await expect(s.download({ ...h.ctx, mode: 'live' }, created.id, link)).rejects.toThrow(
      expect.objectContaining({ type: 'not_found' }),
    );

    clock.advanceDays(7);
    await expect(s.download(h.ctx, created.id, link)).rejects.toThrow(
      expect.objectContaining({ type: 'not_found', message: expect.stringContaining('expired') }),
    );
  });
});
