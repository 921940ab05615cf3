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
  'diagnostic.changed': {
    workspaceId: string;
    diagnosticId: string;
    campaignId: string | null;
    status: string;
    riskLevel?: string | null;
  };
  'report.changed': { workspaceId: string; reportId: string; status: string };
}

export type CoreEventName = keyof CoreEventMap;

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
  onAny(listener: <K extends CoreEventName>(name: K, payload: CoreEventMap[K]) => void): () => void {
    const names: CoreEventName[] = [
      'sync.progress',
      'sync.completed',
      'sync.failed',
      'connection.changed',
      'diagnostic.changed',
      'report.changed',
    ];
    const offs = names.map((name) => this.on(name, (payload) => listener(name, payload)));
    return () => offs.forEach((off) => off());
  }
}
