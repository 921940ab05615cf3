// Reuses the JSON of pure-read routes while the store is unchanged. The key holds the workspace and
// mode of the key, the exact URL, the store's version (this connection's total_changes() and
// data_version, which moves when another connection commits) and the current minute (windows such
// as "last 7 days" move with the clock). Authentication, rate limits and meta are never cached.
import type { Clock } from '../clock';

const MAX_ENTRIES = 500;
/** Answers of several hundred KB (a 500-account portfolio) would otherwise keep 500 × that. */
const MAX_BYTES = 32 * 2 ** 20;

export class ResponseCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  constructor(
    private readonly version: () => string,
    private readonly clock: Clock,
  ) {}

  key(scope: string, url: string): string {
    return `${scope}|${url}|${this.version()}|${Math.floor(this.clock.now().getTime() / 60_000)}`;
  }

  /** The cached body without its closing brace, ready for `,"meta":{…}}`. */
  get(key: string): Buffer | undefined {
    return this.entries.get(key);
  }

  set(key: string, fragment: Buffer): void {
    if (fragment.length > MAX_BYTES) return;
    this.delete(key);
    // Oldest first: keys of past minutes and versions are never asked for again.
    while (this.entries.size >= MAX_ENTRIES || this.bytes + fragment.length > MAX_BYTES)
      this.delete(this.entries.keys().next().value as string);
    this.entries.set(key, fragment);
    this.bytes += fragment.length;
  }

  private delete(key: string): void {
    const fragment = this.entries.get(key);
    if (!fragment) return;
    this.entries.delete(key);
    this.bytes -= fragment.length;
  }
}
