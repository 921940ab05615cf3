// Live updates: core events refresh the affected queries, and sync progress is kept in a tiny store
// so progress bars move without refetching the accounts list on every tick.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import type { BridgeEvent } from '../../../shared/ipc';
import { invalidateDomains } from './hooks';
import { subscribeEvents } from './transport';

type Progress = { percent: number; phase: string };
let progress = new Map<string, Progress>();
const listeners = new Set<() => void>();

function setProgress(accountId: string, value: Progress | null): void {
  progress = new Map(progress);
  if (value) progress.set(accountId, value);
  else progress.delete(accountId);
  listeners.forEach((l) => l());
}

export function useSyncProgress(accountId: string): Progress | undefined {
  const map = useSyncExternalStore(
    (notify) => {
      listeners.add(notify);
      return () => listeners.delete(notify);
    },
    () => progress,
  );
  return map.get(accountId);
}

const REFRESH: Record<BridgeEvent['name'], string[]> = {
  'sync.progress': [],
  'sync.completed': ['accounts', 'campaigns', 'insights', 'diagnostics', 'portfolio'],
  'sync.failed': ['accounts', 'portfolio'],
  'connection.changed': ['accounts', 'portfolio'],
  'connection.expiring': ['accounts'],
  'diagnostic.changed': ['diagnostics', 'campaigns'],
  'report.changed': ['reports'],
  'issue.changed': ['issues', 'diagnostics', 'portfolio'],
  'alert.raised': ['alerts'],
};

export function useLiveEvents(enabled: boolean): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled) return undefined;
    return subscribeEvents((event) => {
      const accountId = typeof event.payload.accountId === 'string' ? event.payload.accountId : null;
      if (event.name === 'sync.progress' && accountId) {
        const known = progress.has(accountId);
        setProgress(accountId, {
          percent: Number(event.payload.percent ?? 0),
          phase: String(event.payload.phase ?? 'syncing'),
        });
        // The first tick of a run also refreshes the list, so "Sync now" turns into a progress bar.
        if (!known) void invalidateDomains(client, ['accounts']);
      }
      if ((event.name === 'sync.completed' || event.name === 'sync.failed') && accountId)
        setProgress(accountId, null);
      const domains = REFRESH[event.name];
      if (domains.length > 0) void invalidateDomains(client, domains);
    });
  }, [client, enabled]);
}
