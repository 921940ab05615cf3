/**
 * Runs `shutdown` once on the first SIGINT or SIGTERM (stop accepting, finish work, close the
 * database, release the lock). A second signal while it runs exits at once.
 */
export function onShutdownSignals(
  shutdown: (signal: NodeJS.Signals) => Promise<void>,
  log: (message: string) => void = (message) => console.error(message),
): () => void {
  let running = false;
  const handler = (signal: NodeJS.Signals) => {
    if (running) {
      log(`${signal} again: exiting without waiting`);
      process.exit(130);
    }
    running = true;
    shutdown(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        log(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
