// A team server's processes share one event bus: what a serve process emits on its CoreEvents, the
// others re-emit on theirs, through LISTEN/NOTIFY on one channel of the shared database. Local emit
// stays synchronous and unchanged; crossing is best-effort, like NOTIFY itself: an event emitted while
// a process has lost its LISTEN connection does not reach that process.
import { randomUUID } from 'node:crypto';
import type { Logger } from './core';
import { CORE_EVENT_NAMES, type CoreEventMap, type CoreEventName, type CoreEvents } from './events';
import type { PgClient, PgPool } from './store/pg/connect';

export const EVENTS_CHANNEL = 'adlens_events';
/**
 * PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. A larger event is stored in
 * team_event_payloads and the notification carries the row's id; receivers read it from there.
 */
export const NOTIFY_LIMIT_BYTES = 8000;
// Long enough for any process that is listening to read a stored event; swept on the next spill.
const SPILL_KEPT = '10 minutes';

/** What crosses: the event, the bridge it came from (to skip our own), and its order there. */
interface Envelope {
  origin: string;
  seq: number;
  name: CoreEventName;
  payload?: unknown;
  /** Set instead of payload when the event was too large to notify: its team_event_payloads id. */
  stored?: number;
}

export interface EventBridgeOptions {
  logger?: Logger;
  /** Told each time LISTEN is established or lost (the host's health, the tests). */
  onStatus?: (status: 'listening' | 'lost') => void;
  /** Waits between reconnection attempts, doubling from `first` up to `max` (ms). */
  retry?: { first: number; max: number };
}

const KNOWN = new Set<string>(CORE_EVENT_NAMES);

export class PgEventBridge {
  /** This bridge's id in every envelope it sends. */
  readonly origin = randomUUID();
  private seq = 0;
  private outbox: { seq: number; name: CoreEventName; text: string }[] = [];
  private sending: Promise<void> | null = null;
  private inbound: Promise<void> = Promise.resolve();
  private listener: PgClient | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  // Payloads being re-emitted from elsewhere: our own subscription must not send them back.
  private readonly relaying = new WeakSet<object>();
  private readonly offs: (() => void)[] = [];

  private constructor(
    private readonly events: CoreEvents,
    private readonly pool: PgPool,
    private readonly options: EventBridgeOptions,
  ) {}

  /**
   * Bridges `events` to every other process on the pool's database. Holds one of the pool's clients
   * for LISTEN until stop(): size the pool for it. Resolves once listening.
   */
  static async start(
    events: CoreEvents,
    pool: PgPool,
    options: EventBridgeOptions = {},
  ): Promise<PgEventBridge> {
    const bridge = new PgEventBridge(events, pool, options);
    await bridge.listen();
    for (const name of CORE_EVENT_NAMES) {
      bridge.offs.push(events.on(name, (payload) => bridge.forward(name, payload)));
    }
    return bridge;
  }

  /** Stops forwarding, sends what was already emitted, and gives back the LISTEN client. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.offs.forEach((off) => off());
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.sending;
    const client = this.listener;
    this.listener = null;
    // Destroyed, not returned to the pool: no session keeps listening on the channel.
    client?.release(true);
    await this.inbound;
  }

  private forward(name: CoreEventName, payload: object): void {
    if (this.relaying.has(payload)) return;
    const seq = ++this.seq;
    const envelope: Envelope = { origin: this.origin, seq, name, payload };
    this.outbox.push({ seq, name, text: JSON.stringify(envelope) });
    this.sending ??= this.drain();
  }

  /** Sends the outbox in emit order, a batch per round trip, until it is empty. */
  private async drain(): Promise<void> {
    while (this.outbox.length > 0) {
      const batch = this.outbox.splice(0);
      try {
        await this.send(batch);
      } catch (error) {
        this.options.logger?.warn('team events: could not notify the other processes', {
          events: batch.map((m) => m.name),
          error: (error as Error).message,
        });
      }
    }
    this.sending = null;
  }

  private async send(batch: { seq: number; name: CoreEventName; text: string }[]): Promise<void> {
    const texts: string[] = [];
    for (const message of batch) {
      if (Buffer.byteLength(message.text, 'utf8') < NOTIFY_LIMIT_BYTES) {
        texts.push(message.text);
        continue;
      }
      const { rows } = await this.pool.query<{ id: number }>(
        'INSERT INTO team_event_payloads (envelope) VALUES ($1) RETURNING id::float8 AS id',
        [message.text],
      );
      await this.pool.query(
        `DELETE FROM team_event_payloads WHERE created_at < now() - interval '${SPILL_KEPT}'`,
      );
      const stored: Envelope = {
        origin: this.origin,
        seq: message.seq,
        name: message.name,
        stored: rows[0]?.id,
      };
      texts.push(JSON.stringify(stored));
    }
    // One statement: the notifications are delivered in this order, after it commits.
    await this.pool.query(
      'SELECT pg_notify($1, t.text) FROM unnest($2::text[]) WITH ORDINALITY AS t(text, i) ORDER BY t.i',
      [EVENTS_CHANNEL, texts],
    );
  }

  private async listen(): Promise<void> {
    const client = await this.pool.connect();
    client.on('notification', (message) => {
      if (message.channel === EVENTS_CHANNEL && message.payload) this.received(message.payload);
    });
    // A checked-out client's error would otherwise crash the process.
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
    } catch (error) {
      client.release(true);
      throw error;
    }
    if (this.stopped) {
      client.release(true);
      return;
    }
    this.listener = client;
    this.options.onStatus?.('listening');
  }

  private lost(client: PgClient): void {
    if (this.listener !== client) return;
    this.listener = null;
    client.release(true);
    this.options.logger?.warn('team events: the LISTEN connection was lost; reconnecting');
    this.options.onStatus?.('lost');
    this.reconnect(this.options.retry?.first ?? 250);
  }

  private reconnect(wait: number): void {
    if (this.stopped) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.listen().catch(() => this.reconnect(Math.min(wait * 2, this.options.retry?.max ?? 10_000)));
    }, wait);
  }

  private received(text: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      this.options.logger?.warn('team events: a notification that is not JSON was ignored');
      return;
    }
    // Our own events were emitted here already; a newer AdLens's events are not ours to know.
    if (envelope.origin === this.origin || !KNOWN.has(envelope.name)) return;
    // Chained: a stored event is read before the ones notified after it are re-emitted.
    this.inbound = this.inbound
      .then(() => this.relay(envelope))
      .catch((error: unknown) => {
        this.options.logger?.warn('team events: an event from another process was dropped', {
          event: envelope.name,
          error: (error as Error).message,
        });
      });
  }

  private async relay(envelope: Envelope): Promise<void> {
    let event = envelope;
    if (envelope.stored !== undefined) {
      const { rows } = await this.pool.query<{ envelope: string }>(
        'SELECT envelope FROM team_event_payloads WHERE id = $1',
        [envelope.stored],
      );
      if (!rows[0]) throw new Error(`stored event ${envelope.stored} was already swept`);
      event = JSON.parse(rows[0].envelope) as Envelope;
    }
    if (this.stopped || typeof event.payload !== 'object' || event.payload === null) return;
    const payload = event.payload;
    this.relaying.add(payload);
    try {
      this.events.emit(event.name, payload as CoreEventMap[CoreEventName]);
    } finally {
      this.relaying.delete(payload);
    }
  }
}
