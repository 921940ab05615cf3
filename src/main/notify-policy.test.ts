import { describe, expect, it } from 'vitest';
import { NotificationPolicy } from './notify-policy';

const diag = (id: string, status: string, riskLevel?: string) =>
  ({
    name: 'diagnostic.changed',
    payload: { workspaceId: 'ws', diagnosticId: id, campaignId: null, status, riskLevel },
  }) as const;

describe('notification policy', () => {
  it('stays quiet about low and medium findings, progress and completed reports', () => {
    const policy = new NotificationPolicy();
    policy.add(diag('diag_1', 'running'));
    policy.add(diag('diag_1', 'completed', 'LOW'));
    policy.add(diag('diag_2', 'completed', 'MEDIUM'));
    policy.add({
      name: 'report.changed',
      payload: { workspaceId: 'ws', reportId: 'rpt_1', status: 'completed' },
    });
    policy.add({ name: 'sync.progress', payload: { workspaceId: 'ws', accountId: 'act_1', percent: 40 } });
    expect(policy.flush(false)).toEqual([]);
  });

  it('groups many high-risk diagnostics into one notice, never one per campaign', () => {
    const policy = new NotificationPolicy();
    for (let i = 0; i < 12; i += 1) policy.add(diag(`diag_${i}`, 'completed', i === 3 ? 'CRITICAL' : 'HIGH'));
    const notices = policy.flush(false);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ title: 'Critical findings', route: '/diagnostics?risk=CRITICAL' });
    expect(notices[0]?.body).toContain('12 diagnostics');
  });

  it('never repeats a diagnostic, and flushing empties the batch', () => {
    const policy = new NotificationPolicy();
    policy.add(diag('diag_1', 'completed', 'HIGH'));
    expect(policy.flush(false)).toHaveLength(1);
    policy.add(diag('diag_1', 'completed', 'HIGH'));
    expect(policy.flush(false)).toEqual([]);
  });

  it('reports failures of diagnostics and reports together', () => {
    const policy = new NotificationPolicy();
    policy.add(diag('diag_1', 'failed'));
    policy.add({
      name: 'report.changed',
      payload: { workspaceId: 'ws', reportId: 'rpt_1', status: 'failed' },
    });
    policy.add({
      name: 'report.changed',
      payload: { workspaceId: 'ws', reportId: 'rpt_2', status: 'failed' },
    });
    const [notice] = policy.flush(false);
    expect(notice?.body).toBe('1 diagnostic and 2 reports failed. The app shows the reason.');
  });

  it('tells about an expired token once until the account is active again', () => {
    const policy = new NotificationPolicy();
    const expired = {
      name: 'connection.changed',
      payload: { workspaceId: 'ws', accountId: 'act_1', connectionStatus: 'token_expired' },
    } as const;
    policy.add(expired);
    policy.add({ ...expired, payload: { ...expired.payload, accountId: 'act_2' } });
    expect(policy.flush(false)).toEqual([
      expect.objectContaining({ title: 'Re-authentication needed', route: '/accounts' }),
    ]);
    policy.add(expired);
    expect(policy.flush(false)).toEqual([]);
    policy.add({
      name: 'connection.changed',
      payload: { workspaceId: 'ws', accountId: 'act_1', connectionStatus: 'active' },
    });
    policy.add(expired);
    expect(policy.flush(false)[0]?.body).toContain('1 ad account');
  });

  it('shows nothing while the window has focus, and does not save it for later', () => {
    const policy = new NotificationPolicy();
    policy.add(diag('diag_1', 'completed', 'CRITICAL'));
    expect(policy.flush(true)).toEqual([]);
    expect(policy.flush(false)).toEqual([]);
  });

  it('shows the alerts no diagnostic notice covers, grouped and once each', () => {
    const policy = new NotificationPolicy();
    const alert = (type: string, title: string) =>
      ({
        name: 'alert.raised',
        payload: { workspaceId: 'ws', accountId: 'act_1', type, title, body: '', issueId: null },
      }) as const;
    policy.add(alert('issue.opened', 'HIGH issue opened: CPA up'));
    expect(policy.flush(false)).toEqual([]);
    policy.add(alert('sync.failed', 'Sync failed: Shop'));
    policy.add(alert('sync.failed', 'Sync failed: Shop'));
    expect(policy.flush(false)).toEqual([
      { title: 'AdLens alert', body: 'Sync failed: Shop', route: '/accounts' },
    ]);
    policy.add(alert('account.disabled', 'Account disabled: Shop'));
    policy.add(alert('results.zero', 'No results on 2026-03-14: Shop'));
    expect(policy.flush(false)[0]).toMatchObject({ title: '2 alerts' });
    // The morning digest arrives on the desktop as a notification too.
    policy.add(alert('digest', 'Morning digest for ana@agency.test, 2026-03-15'));
    expect(policy.flush(false)).toEqual([
      { title: 'AdLens alert', body: 'Morning digest for ana@agency.test, 2026-03-15', route: '/accounts' },
    ]);
  });
});
