// Receivers for the alert tests, on loopback: a webhook server (node:http) answering what the test
// says, an SMTP server (smtp-server) keeping what it receives, the signature check a receiver does,
// and a clock the test moves by hand.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { Clock } from '../core/clock';

type Cleanups = (() => Promise<void> | void)[];

export function handClock(start: string): Clock & { set(iso: string): void; advance(minutes: number): void } {
  let now = Date.parse(start);
  return {
    now: () => new Date(now),
    set: (iso) => (now = Date.parse(iso)),
    advance: (minutes) => (now += minutes * 60_000),
  };
}

export interface Received {
  body: string;
  json: Record<string, unknown>;
  signature: string;
}

/** A webhook receiver; `status` is what it answers next. */
export async function webhookReceiver(cleanups: Cleanups) {
  const calls: Received[] = [];
  const state = { status: 200 };
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      calls.push({
        body,
        json: JSON.parse(body) as Record<string, unknown>,
        signature: String(req.headers['adlens-signature']),
      });
      res.writeHead(state.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url, calls, state };
}

/** True when the header is a valid signature of the body under the secret. */
export function validSignature(secret: string, call: Received): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(call.signature);
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${call.body}`).digest('hex');
  return expected === match[2];
}

export async function smtpReceiver(cleanups: Cleanups) {
  const mails: { to: string[]; data: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (c: Buffer) => (data += c.toString('utf8')));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port, mails };
}
