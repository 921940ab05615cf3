import { afterEach, describe, expect, it } from 'vitest';
import { JobThread } from './thread';

const threads: Array<JobThread<{ value: string; delayMs: number }, string, never, string>> = [];
function echoThread(idleStopMs?: number) {
  const thread = new JobThread<{ value: string; delayMs: number }, string, never, string>({
    entry: new URL('../../test-support/echo-worker', import.meta.url),
    decodeError: (error) => new Error(error),
    label: 'echo',
    ...(idleStopMs === undefined ? {} : { idleStopMs }),
  });
  threads.push(thread);
  return thread;
}
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(async () => {
  for (const thread of threads.splice(0)) await thread.close();
});

describe('JobThread', () => {
  it('stops a worker idle for idleStopMs, and starts a fresh one for the next job', async () => {
    const thread = echoThread(200);
    expect(thread.started).toBe(false);
    expect(await thread.run({ value: 'one', delayMs: 0 })).toBe('one');
    expect(thread.started).toBe(true);
    await wait(600);
    expect(thread.started).toBe(false);
    expect(await thread.run({ value: 'two', delayMs: 0 })).toBe('two');
    expect(thread.started).toBe(true);
  });

  it('keeps its worker between jobs when no idle time is set (a worker with state, as the sync one)', async () => {
    const thread = echoThread();
    await thread.run({ value: 'one', delayMs: 0 });
    await wait(400);
    expect(thread.started).toBe(true);
  });

  it('keeps a worker that has a job running, however long it takes, and one that gets a job in time', async () => {
    const thread = echoThread(200);
    await thread.run({ value: 'warm', delayMs: 0 });
    // A job longer than the idle time: the worker is busy, not idle.
    const long = thread.run({ value: 'long', delayMs: 500 });
    await wait(350);
    expect(thread.started).toBe(true);
    expect(await long).toBe('long');
    // Jobs arriving within the idle time keep the same worker going.
    for (let i = 0; i < 3; i++) {
      await wait(100);
      expect(await thread.run({ value: `again ${i}`, delayMs: 0 })).toBe(`again ${i}`);
      expect(thread.started).toBe(true);
    }
  });
});
