// Alerts reach the analyst without a click: the watcher's findings (issues opened, worsened or
// resolved; syncs that failed; an account disabled; results dropping to zero) become one `alert.raised`
// event (the desktop notification; never held) and one delivery per matching destination in a
// persisted outbox — a webhook signed like Stripe's, or an e-mail through the agency's SMTP server.
// A unique key per destination and per issue state change means never two alerts for one change;
// quiet hours hold deliveries until they end; failures are retried with exponential backoff for a
// day, also after a restart. tick() (the watcher's) pumps what is due and sends each user's digest.
import type { RiskLevel } from '../../shared/api/diagnostics';
import { RISK_LEVELS } from '../../shared/api/diagnostics';
import type { AlertTestResult, AlertType } from '../../shared/api/alerts';
import type { HostPorts } from '../app-services';
import { dateInZone } from '../clock';
import type { Core } from '../core';
import { newId } from '../ids';
import { issueRow, namesFor, toTrackedIssue } from '../issues/store';
import { emailOf, signature, slackBody, type AlertEvent } from './format';
import { hourInZone, quietUntil } from './quiet';
import {
  accountName,
  allDigests,
  claimDelivery,
  destinationRow,
  destinationsOf,
  dueDeliveries,
  enqueueDelivery,
  saveDeliveryOutcome,
  saveDigest,
  type DeliveryRow,
  type DestinationRow,
  type DigestRow,
} from './store';
import { accountChecks } from './account-checks';
import { composeDigest } from './digest';
import { prefsOf } from './prefs';
import { hasSmtpServer, sendWorkspaceMail } from '../mail/smtp';

/** First retry after a minute, doubling, at most two hours apart; given up a day after the first try. */
const RETRY_BASE_MS = 60_000;
const RETRY_MAX_MS = 2 * 60 * 60_000;
const RETRY_FOR_MS = 24 * 60 * 60_000;
/** How long one attempt holds a delivery (so another process does not send it meanwhile). */
const LEASE_MS = 5 * 60_000;
const SEND_TIMEOUT_MS = 10_000;

export function retryDelayMs(attempts: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
}

const rank = (level: RiskLevel) => RISK_LEVELS.indexOf(level) + 1;

/** One alert before it is addressed to destinations. */
export interface Alert {
  workspaceId: string;
  accountId: string | null;
  type: AlertType;
  /** The issue's risk (issue alerts): destinations below it are skipped. */
  severity: RiskLevel | null;
  /** What it announces, once per destination (e.g. issue:<id>:<change>:<history length>). */
  key: string;
  issueId: string | null;
  event: Omit<AlertEvent, 'id' | 'createdAt' | 'type'>;
}

const ISSUE_ALERTS: Record<string, AlertType | undefined> = {
  opened: 'issue.opened',
  reopened: 'issue.opened',
  worsened: 'issue.worsened',
  resolved: 'issue.resolved',
};

export class AlertsService {
  private offs: (() => void)[] = [];
  private readonly inFlight = new Map<string, Promise<void>>();
  /** The event-driven and tick work, one piece at a time in the order it came (it reads the store). */
  private queue: Promise<void> = Promise.resolve();
  private queued = 0;

  constructor(
    private readonly core: Core,
    private readonly host: HostPorts,
  ) {}

  /** Subscribes to what alerts are made of. */
  listen(): void {
    if (this.offs.length > 0) return;
    const { events } = this.core;
    this.offs.push(
      events.on('issue.changed', (e) => this.safely(() => this.onIssue(e.issueId, e.workspaceId, e.change))),
      events.on('sync.failed', (e) =>
        this.safely(async () => {
          if (e.error.type === 'interrupted') return; // a stop at shutdown is nobody's problem
          const account = await accountName(this.core.sql, e.accountId);
          await this.raise({
            workspaceId: e.workspaceId,
            accountId: e.accountId,
            type: 'sync.failed',
            severity: null,
            key: `sync:${e.syncRunId}`,
            issueId: null,
            event: await this.eventFor(e.accountId, null, {
              title: `Sync failed: ${account?.name ?? e.accountId}`,
              text: `The sync of ${account?.name ?? e.accountId} failed: ${e.error.message}`,
              issue: null,
              detail: { syncRunId: e.syncRunId, error: e.error },
            }),
          });
        }),
      ),
      events.on('sync.completed', (e) => this.safely(() => this.afterSync(e.workspaceId, e.accountId))),
      // The core announces a token within 7 days of lapsing once a day per connection: one alert a
      // day, for each account that shares the token.
      events.on('connection.expiring', (e) =>
        this.safely(async () => {
          for (const accountId of e.accountIds.length > 0 ? e.accountIds : [e.accountId]) {
            const account = await accountName(this.core.sql, accountId);
            const name = account?.name ?? accountId;
            const days =
              e.daysLeft <= 0 ? 'has lapsed' : `lapses in ${e.daysLeft} day${e.daysLeft === 1 ? '' : 's'}`;
            await this.raise({
              workspaceId: e.workspaceId,
              accountId,
              type: 'token.expiring',
              severity: null,
              key: `token:${e.connectionId}:${accountId}:${e.expiresAt.slice(0, 10)}:${this.core.clock.now().toISOString().slice(0, 10)}`,
              issueId: null,
              event: await this.eventFor(accountId, null, {
                title: `Access token expiring: ${name}`,
                text: `The access token of ${name} ${days} (${e.expiresAt}). Re-authenticate it in AdLens so syncing does not stop.`,
                issue: null,
                detail: { connectionId: e.connectionId, expiresAt: e.expiresAt, daysLeft: e.daysLeft },
              }),
            });
          }
        }),
      ),
    );
  }

  /** Stops listening and waits for the attempts under way. */
  async stop(): Promise<void> {
    for (const off of this.offs.splice(0)) off();
    await this.whenIdle();
  }

  /** One pass (the watcher's tick): digests that are due, then every delivery that is due. */
  tick(): void {
    this.safely(() => this.sendDueDigests());
    this.safely(() => this.pump());
  }

  /** Resolves when no delivery attempt is under way (tests, shutdown). */
  async whenIdle(): Promise<void> {
    while (this.inFlight.size > 0 || this.queued > 0)
      await Promise.allSettled([...this.inFlight.values(), this.queue]);
  }

  /** Queues work behind what came before it; a failure is logged, never thrown at the event's emitter. */
  private safely(fn: () => Promise<void>): void {
    this.queued += 1;
    this.queue = this.queue
      .then(fn)
      .catch((error: unknown) => this.core.logger.error('alerts failed', { error: String(error) }))
      .finally(() => {
        this.queued -= 1;
      });
  }

  private link(campaignId: string | null): string | null {
    const base = this.host.apiBaseUrl();
    if (!base) return null;
    return campaignId ? `${base}/#/campaigns/${campaignId}` : `${base}/#/accounts`;
  }

  private async eventFor(
    accountId: string | null,
    campaign: { id: string; name: string } | null,
    rest: Pick<AlertEvent, 'title' | 'text' | 'issue' | 'detail'>,
  ): Promise<Alert['event']> {
    const account = accountId ? await accountName(this.core.sql, accountId) : undefined;
    return {
      account: account ? { id: account.id, name: account.name } : null,
      campaign,
      link: this.link(campaign?.id ?? null),
      ...rest,
    };
  }

  private async onIssue(issueId: string, workspaceId: string, change: string): Promise<void> {
    const type = ISSUE_ALERTS[change];
    if (!type) return;
    const row = await issueRow(this.core.sql, workspaceId, issueId);
    if (!row) return;
    const issue = toTrackedIssue({ ...row, ...(await namesFor(this.core.sql, row)) });
    const verb = { 'issue.opened': 'opened', 'issue.worsened': 'worse', 'issue.resolved': 'resolved' }[
      type as 'issue.opened'
    ];
    const where = `${issue.accountName}${issue.campaignName ? ` / ${issue.campaignName}` : ''}`;
    await this.raise({
      workspaceId,
      accountId: row.account_id,
      type,
      // A resolution reaches whoever was told of the problem: it is judged by its peak.
      severity: type === 'issue.resolved' ? row.peak_severity : row.severity,
      key: `issue:${issueId}:${change}:${issue.history.length}`,
      issueId,
      event: await this.eventFor(
        row.account_id,
        issue.campaignId ? { id: issue.campaignId, name: issue.campaignName ?? '' } : null,
        {
          title: `${issue.severity} issue ${verb}: ${issue.title}`,
          text: `${where}\n${issue.title}\n${issue.description}`,
          issue: issue as unknown as Record<string, unknown>,
          detail: null,
        },
      ),
    });
  }

  /** After a sync: the account checks, each raised once (see accountChecks). */
  private async afterSync(workspaceId: string, accountId: string): Promise<void> {
    for (const check of await accountChecks(this.core, workspaceId, accountId)) {
      await this.raise({
        workspaceId,
        accountId,
        type: check.type,
        severity: check.severity,
        key: check.key,
        issueId: null,
        event: await this.eventFor(accountId, null, {
          title: check.title,
          text: check.text,
          issue: null,
          detail: check.detail,
        }),
      });
    }
  }

  /** Announces an alert and queues it for each destination whose rules it meets (none if muted). */
  async raise(alert: Alert): Promise<number> {
    const { sql, clock, events } = this.core;
    const prefs = await prefsOf(this.core, alert.workspaceId);
    if (alert.accountId && prefs.mutedAccountIds.includes(alert.accountId)) return 0;
    const now = clock.now();
    const targets = (await destinationsOf(sql, alert.workspaceId)).filter(
      (d) =>
        (d.account_id === null || d.account_id === alert.accountId) &&
        (JSON.parse(d.types) as string[]).includes(alert.type) &&
        (alert.severity === null || rank(alert.severity) >= rank(d.min_risk)),
    );
    const release = quietUntil(now, { from: prefs.quietFrom, to: prefs.quietTo, timezone: prefs.timezone });
    const at = (release ?? now).toISOString();
    let queued = 0;
    await sql.transaction(async (tx) => {
      for (const destination of targets) {
        const id = newId('dlv');
        const event: AlertEvent = { id, type: alert.type, createdAt: now.toISOString(), ...alert.event };
        const fresh = await enqueueDelivery(tx, {
          id,
          destination_id: destination.id,
          dedupe_key: alert.key,
          type: alert.type,
          payload: JSON.stringify(event),
          status: 'pending',
          attempts: 0,
          created_at: now.toISOString(),
          next_attempt_at: at,
          expires_at: new Date((release ?? now).getTime() + RETRY_FOR_MS).toISOString(),
          last_status: null,
          last_error: null,
          delivered_at: null,
        });
        if (fresh) queued += 1;
      }
    });
    if (alert.type !== 'digest') {
      events.emit('alert.raised', {
        workspaceId: alert.workspaceId,
        accountId: alert.accountId,
        type: alert.type,
        title: alert.event.title,
        body: alert.event.text,
        issueId: alert.issueId,
      });
    }
    if (queued > 0 && !release) await this.pump();
    return queued;
  }

  /** Starts an attempt for every delivery that is due and not already under way (claimed first). */
  async pump(): Promise<void> {
    const { sql, clock } = this.core;
    const now = clock.now();
    for (const row of await dueDeliveries(sql, now.toISOString())) {
      if (this.inFlight.has(row.id)) continue;
      if (!(await claimDelivery(sql, row, new Date(now.getTime() + LEASE_MS).toISOString()))) continue;
      const attempt = this.attempt(row).finally(() => this.inFlight.delete(row.id));
      this.inFlight.set(row.id, attempt);
    }
  }

  private async attempt(row: DeliveryRow): Promise<void> {
    const { sql, clock, logger } = this.core;
    const destination = await destinationRow(sql, row.destination_id);
    if (!destination) return; // removed meanwhile: its deliveries went with it
    const outcome = await this.send(destination, row.payload);
    const now = clock.now();
    const attempts = row.attempts + 1;
    if (outcome.ok) {
      await saveDeliveryOutcome(sql, {
        id: row.id,
        status: 'delivered',
        attempts,
        next_attempt_at: now.toISOString(),
        last_status: outcome.httpStatus,
        last_error: null,
        delivered_at: now.toISOString(),
      });
      return;
    }
    const next = new Date(now.getTime() + retryDelayMs(attempts));
    const givenUp = next.toISOString() > row.expires_at;
    if (givenUp) logger.warn('alert delivery given up', { deliveryId: row.id, error: outcome.error });
    await saveDeliveryOutcome(sql, {
      id: row.id,
      status: givenUp ? 'failed' : 'pending',
      attempts,
      next_attempt_at: next.toISOString(),
      last_status: outcome.httpStatus,
      last_error: outcome.error,
      delivered_at: null,
    });
  }

  /** Sends one body to one destination now (no outbox): the outbox's attempts and `alerts test`. */
  async send(
    destination: DestinationRow,
    payload: string,
  ): Promise<{ ok: boolean; httpStatus: number | null; error: string | null }> {
    const event = JSON.parse(payload) as AlertEvent;
    try {
      if (destination.kind === 'webhook') {
        const body = destination.format === 'slack' ? slackBody(event) : payload;
        const secret = destination.secret_sealed
          ? this.core.tokenCipher.decrypt(destination.secret_sealed)
          : '';
        const t = Math.floor(this.core.clock.now().getTime() / 1000);
        const response = await fetch(destination.target, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'AdLens-Webhooks/1',
            'AdLens-Signature': signature(secret, body, t),
          },
          body,
          signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        });
        await response.arrayBuffer().catch(() => undefined);
        return {
          ok: response.ok,
          httpStatus: response.status,
          error: response.ok ? null : `HTTP ${response.status}`,
        };
      }
      if (!(await hasSmtpServer(this.core, destination.workspace_id)))
        return { ok: false, httpStatus: null, error: 'no SMTP server is set for the workspace' };
      await sendWorkspaceMail(this.core, destination.workspace_id, {
        to: destination.target,
        ...emailOf(event),
      });
      return { ok: true, httpStatus: null, error: null };
    } catch (error) {
      return { ok: false, httpStatus: null, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Each user's digest, once a day at their hour in their time zone (persisted: once per day). */
  private async sendDueDigests(): Promise<void> {
    const now = this.core.clock.now();
    for (const digest of await allDigests(this.core.sql)) {
      const today = dateInZone(now, digest.timezone);
      if (digest.last_day === today || hourInZone(now, digest.timezone) < digest.hour) continue;
      // Composing reads the store asynchronously: a digest being composed is not started twice, and
      // its delivery is pumped as soon as it is raised.
      const key = `digest:${digest.user_id}`;
      if (this.inFlight.has(key)) continue;
      const composing = this.sendDigest(digest, today)
        .then(() => this.pump())
        .catch((error: unknown) => this.core.logger.error('alerts failed', { error: String(error) }))
        .finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, composing);
    }
  }

  private async sendDigest(digest: DigestRow, today: string): Promise<void> {
    const now = this.core.clock.now();
    const composed = await composeDigest(this.core.sql, digest, today, now);
    if (!composed) return;
    // Recorded first: a crash after this line skips one digest rather than sending two.
    await saveDigest(this.core.sql, { ...digest, last_day: today, last_sent_at: now.toISOString() });
    await this.raise({
      workspaceId: digest.workspace_id,
      accountId: null,
      type: 'digest',
      severity: null,
      key: `digest:${digest.user_id}:${today}`,
      issueId: null,
      event: {
        account: null,
        campaign: null,
        issue: null,
        detail: composed.detail,
        title: composed.title,
        text: composed.text,
        link: this.link(null),
      },
    });
  }

  /** Sends a signed test event to one destination now and reports how it went. */
  async test(destination: DestinationRow): Promise<AlertTestResult> {
    const event: AlertEvent = {
      id: newId('dlv'),
      type: 'test',
      createdAt: this.core.clock.now().toISOString(),
      account: null,
      campaign: null,
      issue: null,
      detail: null,
      title: 'Test alert',
      text: 'AdLens can reach this destination.',
      link: this.link(null),
    };
    const outcome = await this.send(destination, JSON.stringify(event));
    return {
      destinationId: destination.id,
      delivered: outcome.ok,
      httpStatus: outcome.httpStatus,
      error: outcome.error,
    };
  }
}
