import { EventEmitter } from 'node:events';

/**
 * Everything the core announces: sync progress, job states, connection changes. The /v1 SSE stream,
 * the desktop IPC bridge and the CLI's progress bar all subscribe here.
 */
export interface CoreEventMap {
  'sync.progress': {
    workspaceId: string;
    accountId: string;
    syncRunId: string;
    phase: string;
    percent: number;
  };
  'sync.completed': {
    workspaceId: string;
    accountId: string;
    syncRunId: string;
    kind: 'full' | 'incremental';
  };
  'sync.failed': {
    workspaceId: string;
    accountId: string;
    syncRunId: string;
    error: { type: string; message: string };
  };
  'connection.changed': {
    workspaceId: string;
    accountId: string;
    connectionStatus: 'active' | 'disconnected' | 'token_expired';
  };
  /**
   * A connection's token expires within 7 days: once per connection per day. `accountId` is its
   * first account (for scoping), `accountIds` all of them.
   */
  'connection.expiring': {
    workspaceId: string;
    connectionId: string;
    accountId: string;
    accountIds: string[];
    expiresAt: string;
    daysLeft: number;
  };
  'diagnostic.changed': {
    workspaceId: string;
    diagnosticId: string;
    campaignId: string | null;
    status: string;
    riskLevel?: string | null;
  };
  'report.changed': { workspaceId: string; reportId: string; status: string };
  /** An issue was opened, worsened, improved, resolved, reopened, acknowledged, snoozed or woke up. */
  'issue.changed': {
    workspaceId: string;
    accountId: string;
    campaignId: string | null;
    issueId: string;
    type: string;
    change: string;
    state: string;
    severity: string;
  };
  /** An alert for the analyst (the desktop shows it as a notification); never held by quiet hours. */
  'alert.raised': {
    workspaceId: string;
    accountId: string | null;
    type: string;
    title: string;
    body: string;
    issueId: string | null;
  };
  /**
   * A user was disabled or removed, or a key revoked: live streams opened with them must close.
   * Not forwarded to streams (onAny leaves it out): it is for the transports that hold them.
   */
  'access.revoked': { workspaceId: string; userId: string | null; keyIds: string[] };
}

export type CoreEventName = keyof CoreEventMap;
/** The events forwarded to streams (the /v1 event stream, the bridge, IPC). */
export type StreamedEventName = Exclude<CoreEventName, 'access.revoked'>;

// Keyed by name so the compiler fails here when an event joins the map without joining the list.
const EVERY_EVENT: Record<CoreEventName, true> = {
  'sync.progress': true,
  'sync.completed': true,
  'sync.failed': true,
  'connection.changed': true,
  'connection.expiring': true,
  'diagnostic.changed': true,
  'report.changed': true,
  'issue.changed': true,
  'alert.raised': true,
  'access.revoked': true,
};
/** Every event name, for what must carry all of them (a team server's processes share them all). */
export const CORE_EVENT_NAMES = Object.keys(EVERY_EVENT) as readonly CoreEventName[];

export class CoreEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  emit<K extends CoreEventName>(name: K, payload: CoreEventMap[K]): void {
    this.emitter.emit(name, payload);
  }

  on<K extends CoreEventName>(name: K, listener: (payload: CoreEventMap[K]) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }

  /** Every event, with its name: for streams that forward all of them. */
  onAny(listener: <K extends StreamedEventName>(name: K, payload: CoreEventMap[K]) => void): () => void {
    const names = CORE_EVENT_NAMES.filter((name): name is StreamedEventName => name !== 'access.revoked');
    const offs = names.map((name) => this.on(name, (payload) => listener(name, payload)));
    return () => offs.forEach((off) => off());
  }
}
