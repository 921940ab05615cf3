// What the desktop app tells the analyst unprompted. Calm by design: only new HIGH or CRITICAL
// findings, failures, and expired tokens; grouped per flush window, never one per campaign, never
// twice for the same diagnostic, report or account, and nothing while the window has focus (the
// screen shows it already). Pure: the Electron host feeds events in and shows what comes out.
import type { BridgeEvent } from '../shared/ipc/types';

export interface Notice {
  title: string;
  body: string;
  /** The screen a click opens. */
  route: string;
}

type Pending = {
  risky: Map<string, string>;
  failedDiagnostics: Set<string>;
  failedReports: Set<string>;
  expired: Set<string>;
  /** Alerts the watcher raised that no diagnostic notice covers (key → title). */
  alerts: Map<string, string>;
};

/**
 * alert.raised types shown here (new and risky issues already come as diagnostic notices), the morning
 * digest among them: on the desktop, the digest arrives as a notification.
 */
const ALERT_NOTICES = new Set([
  'issue.worsened',
  'sync.failed',
  'account.disabled',
  'account.spend_cap',
  'spend.pacing',
  'results.zero',
  'token.expiring',
  'digest',
]);

const SEVERE = new Set(['HIGH', 'CRITICAL']);

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

export class NotificationPolicy {
  private pending: Pending = this.empty();
  private readonly seen = new Set<string>();

  private empty(): Pending {
    return {
      risky: new Map(),
      failedDiagnostics: new Set(),
      failedReports: new Set(),
      expired: new Set(),
      alerts: new Map(),
    };
  }

  /** Records one core event (already scoped to the workspace). */
  add(event: BridgeEvent): void {
    const p = event.payload;
    if (event.name === 'diagnostic.changed' && typeof p.diagnosticId === 'string') {
      const id = p.diagnosticId;
      if (p.status === 'completed' && typeof p.riskLevel === 'string' && SEVERE.has(p.riskLevel)) {
        this.once(`diag:${id}`, () => this.pending.risky.set(id, p.riskLevel as string));
      } else if (p.status === 'failed') {
        this.once(`diag:${id}`, () => this.pending.failedDiagnostics.add(id));
      }
    } else if (event.name === 'report.changed' && typeof p.reportId === 'string' && p.status === 'failed') {
      this.once(`report:${p.reportId}`, () => this.pending.failedReports.add(p.reportId as string));
    } else if (event.name === 'alert.raised' && typeof p.type === 'string' && ALERT_NOTICES.has(p.type)) {
      const key = `alert:${p.type}:${String(p.issueId ?? p.accountId)}:${String(p.title)}`;
      this.once(key, () => this.pending.alerts.set(key, String(p.title)));
    } else if (event.name === 'connection.changed' && typeof p.accountId === 'string') {
      const key = `expired:${p.accountId}`;
      if (p.connectionStatus === 'token_expired')
        this.once(key, () => this.pending.expired.add(p.accountId as string));
      // Re-authenticated: a later expiry is news again.
      else if (p.connectionStatus === 'active') this.seen.delete(key);
    }
  }

  private once(key: string, record: () => void): void {
    if (this.seen.has(key)) return;
    this.seen.add(key);
    record();
  }

  /** The notices for everything recorded since the last flush (none when the window has focus). */
  flush(windowFocused: boolean): Notice[] {
    const p = this.pending;
    this.pending = this.empty();
    if (windowFocused) return [];
    const notices: Notice[] = [];
    if (p.expired.size > 0) {
      notices.push({
        title: 'Re-authentication needed',
        body: `The access token of ${plural(p.expired.size, 'ad account')} expired. Syncing has stopped until you re-authenticate.`,
        route: '/accounts',
      });
    }
    if (p.risky.size > 0) {
      const critical = [...p.risky.values()].filter((r) => r === 'CRITICAL').length;
      notices.push({
        title: critical > 0 ? 'Critical findings' : 'High-risk findings',
        body: `${plural(p.risky.size, 'diagnostic')} found ${critical > 0 ? `critical issues (${critical})` : 'high-risk issues'}. Open Diagnostics to review the recommendations.`,
        route: '/diagnostics?risk=' + (critical > 0 ? 'CRITICAL' : 'HIGH'),
      });
    }
    if (p.alerts.size > 0) {
      const titles = [...p.alerts.values()];
      notices.push({
        title: titles.length === 1 ? 'AdLens alert' : `${titles.length} alerts`,
        body:
          titles.length === 1
            ? (titles[0] ?? '')
            : `${titles.slice(0, 2).join('; ')}${titles.length > 2 ? '…' : ''}`,
        route: '/accounts',
      });
    }
    const failures = p.failedDiagnostics.size + p.failedReports.size;
    if (failures > 0) {
      const parts = [
        p.failedDiagnostics.size > 0 ? plural(p.failedDiagnostics.size, 'diagnostic') : null,
        p.failedReports.size > 0 ? plural(p.failedReports.size, 'report') : null,
      ].filter(Boolean);
      notices.push({
        title: 'Something failed',
        body: `${parts.join(' and ')} failed. The app shows the reason.`,
        route:
          p.failedReports.size > 0 && p.failedDiagnostics.size === 0
            ? '/reports'
            : '/diagnostics?status=failed',
      });
    }
    return notices;
  }
}
