import type { CoreEvents } from '../core/events';

/**
 * Shows sync progress on stderr: a redrawn bar on a terminal, one line per phase (and per 25%) when
 * piped, so logs stay readable. Returns a function that stops listening.
 */
export function showSyncProgress(
  events: CoreEvents,
  labels: Map<string, string>,
  stream: NodeJS.WriteStream = process.stderr,
): () => void {
  const tty = stream.isTTY === true;
  const last = new Map<string, { phase: string; percent: number }>();
  const offProgress = events.on('sync.progress', ({ accountId, phase, percent }) => {
    const label = labels.get(accountId) ?? accountId;
    const previous = last.get(accountId);
    if (tty) {
      const width = 30;
      const filled = Math.round((percent / 100) * width);
      stream.write(
        `\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(percent).padStart(3)}% ${phase.padEnd(18)}`,
      );
    } else if (
      !previous ||
      previous.phase !== phase ||
      Math.floor(percent / 25) > Math.floor(previous.percent / 25)
    ) {
      stream.write(`${label}: ${phase} ${percent}%\n`);
    }
    last.set(accountId, { phase, percent });
  });
  const end = (accountId: string, text: string) => {
    const label = labels.get(accountId) ?? accountId;
    stream.write(`${tty ? '\r\x1b[2K' : ''}${label}: ${text}\n`);
  };
  const offDone = events.on('sync.completed', ({ accountId }) => end(accountId, 'synced'));
  const offFailed = events.on('sync.failed', ({ accountId, error }) =>
    end(accountId, `sync ${error.type}: ${error.message}`),
  );
  return () => {
    offProgress();
    offDone();
    offFailed();
  };
}
