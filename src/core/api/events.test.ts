import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedScenario, type Scenario } from '../../test-support/api-scenario';
import { startTestApi, type TestApi } from '../../test-support/api-server';
import { ENGINES } from '../../test-support/engines';

describe.each(ENGINES)('on %s', (engine) => {
  let t: TestApi;
  let s: Scenario;
  beforeAll(async () => {
    const started = await startTestApi({ engine, seed: seedScenario });
    t = started;
    s = started.seeded;
  });
  afterAll(async () => {
    await t.close();
  });

  /** Reads the stream until `done(text)` holds or the deadline passes. */
  async function readUntil(
    reader: ReadableStreamDefaultReader<Uint8Array>,
    done: (text: string) => boolean,
    ms = 5000,
  ) {
    const decoder = new TextDecoder();
    let text = '';
    const deadline = Date.now() + ms;
    while (!done(text) && Date.now() < deadline) {
      const chunk = await Promise.race([
        reader.read(),
        new Promise<{ done: true; value: undefined }>((r) =>
          setTimeout(() => r({ done: true, value: undefined }), deadline - Date.now()),
        ),
      ]);
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
    return text;
  }

  describe('GET /v1/events', () => {
    it('streams the key workspace and mode events only, and ends when the server closes', async () => {
      const res = await fetch(`${t.url}/v1/events`, { headers: { 'x-api-key': s.keys.testA.key } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      expect(await readUntil(reader, (x) => x.includes(': connected'))).toContain('retry: 3000');

      const progress = (workspaceId: string, accountId: string, percent: number) =>
        t.core.events.emit('sync.progress', {
          workspaceId,
          accountId,
          syncRunId: 'sync_x',
          phase: 'insights',
          percent,
        });
      progress(s.a.workspaceId, s.a1.id, 11); // live account: not for a test key
      progress(s.b.workspaceId, s.b1.id, 22); // another workspace
      progress(s.a.workspaceId, s.a2.id, 33); // test account of the key's workspace
      const text = await readUntil(reader, (x) => x.includes('"percent":33'));
      expect(text).toContain('event: sync.progress');
      expect(text).toContain(`"accountId":"${s.a2.id}"`);
      expect(text).not.toContain('"percent":11');
      expect(text).not.toContain('"percent":22');

      const closed = t.api.close();
      const rest = await readUntil(reader, () => false, 3000);
      expect(rest).toBe('');
      await closed;
    });
  });
});
