// Overload protection over real HTTP: a burst beyond the queue is refused at once with the envelope
// and a retry hint, while an ordinary burst of a screen's parallel calls is served whole.
import { afterEach, describe, expect, it } from 'vitest';
import { Admission } from './admission';
import { seedKey, seedWorkspace } from '../../test-support/api-fixtures';
import { startTestApi, type TestApi } from '../../test-support/api-server';

let t: TestApi | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function burst(count: number, admission?: Parameters<typeof startTestApi>[0]) {
  t = await startTestApi(admission);
  const ws = seedWorkspace(t.core.db, { plan: 'agency' });
  const { key } = await seedKey(t.core.db, t.clock, {
    workspaceId: ws.workspaceId,
    limitOverrides: { reads: 10_000 },
  });
  const answers = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const res = await fetch(`${t!.url}/v1/accounts?page=${i + 1}`, { headers: { 'x-api-key': key } });
      return {
        status: res.status,
        body: (await res.json()) as { data?: unknown; error?: { type: string; message: string } },
      };
    }),
  );
  return answers;
}

describe('admission', () => {
  it('queues a burst and refuses at once what would wait longer than allowed', async () => {
    const admission = new Admission({ maxQueueWaitMs: 5, minQueueToRefuse: 4 });
    const answers = Array.from({ length: 20 }, () => admission.admit());
    // Each queued request is expected to take the average (1 ms to start): 5 fit in 5 ms.
    expect(admission.waiting).toBe(5);
    const settled = await Promise.all(
      answers.map(async (p) => {
        const a = await p;
        if (a.ok) a.release();
        return a.ok;
      }),
    );
    expect(settled.filter(Boolean)).toHaveLength(5);
    expect(settled.slice(0, 5).every(Boolean)).toBe(true);
  });

  it('answers a refusal over HTTP with the envelope and a retry hint', async () => {
    const answers = await burst(3, { server: { admission: { maxQueue: 0 } } });
    for (const a of answers) {
      expect(a.status).toBe(429);
      expect(a.body.error).toMatchObject({
        type: 'rate_limit_error',
        message: expect.stringMatching(/busy: retry in 1 second/),
      });
    }
  });

  it("serves an ordinary burst of parallel calls (a screen's fan-out) whole with the default settings", async () => {
    const answers = await burst(8);
    expect(answers.every((a) => a.status === 200)).toBe(true);
  });
});
