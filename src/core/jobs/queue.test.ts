import { describe, expect, it } from 'vitest';
import { JobQueue } from './queue';

describe('JobQueue', () => {
  it('runs jobs one at a time in order, never the same ID twice at once, after the caller returns', async () => {
    const log: string[] = [];
    let running = 0;
    const queue = new JobQueue({
      run: async (id) => {
        running += 1;
        expect(running).toBe(1);
        log.push(`start ${id}`);
        await new Promise((r) => setTimeout(r, 5));
        log.push(`end ${id}`);
        running -= 1;
      },
    });
    expect(queue.enqueue('a')).toBe(true);
    expect(queue.enqueue('a')).toBe(false);
    queue.enqueue('b');
    log.push('returned');
    await queue.whenIdle();
    expect(log).toEqual(['returned', 'start a', 'end a', 'start b', 'end b']);
  });

  it('goes on after a failing job and reports it', async () => {
    const errors: string[] = [];
    const done: string[] = [];
    const queue = new JobQueue({
      run: (id) => {
        if (id === 'bad') throw new Error('boom');
        done.push(id);
      },
      onError: (id, error) => errors.push(`${id}: ${(error as Error).message}`),
    });
    queue.enqueue('bad');
    queue.enqueue('good');
    await queue.whenIdle();
    expect(errors).toEqual(['bad: boom']);
    expect(done).toEqual(['good']);
  });

  it('on stop, lets the running job finish, drops the waiting ones and takes no new work until start', async () => {
    const done: string[] = [];
    const queue = new JobQueue({
      run: async (id) => {
        await new Promise((r) => setTimeout(r, 10));
        done.push(id);
      },
    });
    queue.enqueue('a');
    queue.enqueue('b');
    await new Promise((r) => setTimeout(r, 2));
    expect(queue.active).toBe('a');
    await queue.stop();
    expect(done).toEqual(['a']);
    expect(queue.enqueue('c')).toBe(false);
    queue.start();
    queue.enqueue('c');
    await queue.whenIdle();
    expect(done).toEqual(['a', 'c']);
  });
});

describe('JobQueue with concurrency', () => {
  it('runs up to N jobs at once, in order of arrival, and the same ID never twice at once', async () => {
    let running = 0;
    let peak = 0;
    const started: string[] = [];
    const queue = new JobQueue({
      concurrency: 2,
      run: async (id) => {
        running += 1;
        peak = Math.max(peak, running);
        started.push(id);
        await new Promise((r) => setTimeout(r, 5));
        running -= 1;
      },
    });
    for (const id of ['a', 'b', 'c', 'd']) queue.enqueue(id);
    expect(queue.enqueue('a')).toBe(false);
    await new Promise((r) => setTimeout(r, 1));
    expect(queue.runningCount).toBe(2);
    expect(queue.has('a') && queue.has('d')).toBe(true);
    await queue.whenIdle();
    expect(peak).toBe(2);
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    expect(queue.has('a')).toBe(false);
    // Once done, the same ID may run again.
    expect(queue.enqueue('a')).toBe(true);
    await queue.whenIdle();
    expect(started).toEqual(['a', 'b', 'c', 'd', 'a']);
  });
});
