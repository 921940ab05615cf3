// GET /v1/events: a Server-Sent Events stream of the core's events for the key's workspace and mode
// (sync progress and outcomes, connection changes, diagnostic and report state changes).
import { visibleEvent } from '../../identity/event-scope';
import { defineRoute } from '../route';

export const HEARTBEAT_MS = 15_000;
/** How often a live stream re-checks that its key still has access (closed within this time). */
export const ACCESS_RECHECK_MS = 500;

export const eventRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/events',
    operationId: 'streamEvents',
    summary: 'Server-Sent Events: sync, connection, diagnostic and report changes of the workspace',
    description:
      'Each event has `event: <name>` (sync.progress, sync.completed, sync.failed, connection.changed, diagnostic.changed, report.changed, issue.changed, alert.raised) and `data: <JSON payload>`. A comment line is sent every 15 seconds to keep the connection open. Counts as one read when it connects.',
    tag: 'Events',
    counters: ['reads'],
    response: { status: 200, contentTypes: ['text/event-stream'] },
    errors: [],
    handle({ app, ctx, req, res, onClose }) {
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.write(`retry: 3000\n: connected\n\n`);
      const sql = app.core.sql;
      // The scope check reads the store: events are checked and written one after another, in the
      // order they were emitted.
      let written: Promise<void> = Promise.resolve();
      const off = app.core.events.onAny((name, payload) => {
        written = written.then(async () => {
          if (closed || !(await visibleEvent(sql, ctx, name, payload))) return;
          res.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`);
        }, close);
      });
      const heartbeat = setInterval(() => res.write(`: heartbeat\n\n`), HEARTBEAT_MS);
      heartbeat.unref();
      // A revoked or expired key (revoked here or by the CLI in another process) ends the stream.
      const recheck = setInterval(() => {
        // A store that cannot answer ends the stream too: the client reconnects and authenticates again.
        app.use.identity.accessStillValid(ctx).then((valid) => valid || close(), close);
      }, ACCESS_RECHECK_MS);
      recheck.unref();
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        clearInterval(recheck);
        off();
        if (!res.writableEnded) res.end();
      };
      req.on('close', close);
      res.on('close', close);
      onClose(close);
      return { kind: 'taken' };
    },
  }),
];
