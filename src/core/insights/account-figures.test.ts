import { describe, expect, it } from 'vitest';
import { AccountFigures } from './account-figures';

/** A compute that counts its calls and answers when released. */
function gatedCompute(values: Record<string, number>) {
  const calls: string[][] = [];
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const compute = async (ids: string[]) => {
    calls.push(ids);
    await gate;
    return new Map(ids.filter((id) => id in values).map((id) => [id, values[id] as number]));
  };
  return { calls, compute, release: () => release() };
}

describe('AccountFigures', () => {
  it('shares one computation among concurrent reads of the same figures at the same revisions', async () => {
    const figures = new AccountFigures();
    const { calls, compute, release } = gatedCompute({ a: 1, b: 2, c: 3 });
    const revisions = new Map([
      ['a', 1],
      ['b', 1],
    ]);
    const first = figures.each(revisions, () => 'spend', compute, 0);
    // A second read wants b (in flight) and c (not): only c is computed for it.
    const second = figures.each(
      new Map([
        ['c', 1],
        ['b', 1],
      ]),
      () => 'spend',
      compute,
      0,
    );
    release();
    expect([...(await first)]).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    // In the order asked for, whichever way each figure came.
    expect([...(await second)]).toEqual([
      ['c', 3],
      ['b', 2],
    ]);
    expect(calls).toEqual([['a', 'b'], ['c']]);
    // Kept after: no computation for the same revisions; a moved revision computes that account only.
    const again = gatedCompute({ a: 10, b: 20 });
    again.release();
    const moved = await figures.each(
      new Map([
        ['a', 2],
        ['b', 1],
      ]),
      () => 'spend',
      again.compute,
      0,
    );
    expect([...moved]).toEqual([
      ['a', 10],
      ['b', 2],
    ]);
    expect(again.calls).toEqual([['a']]);
  });

  it('gives a failed computation to every read waiting on it, and computes again on the next read', async () => {
    const figures = new AccountFigures();
    let fail = true;
    const compute = async (ids: string[]) => {
      await Promise.resolve();
      if (fail) throw new Error('database gone');
      return new Map(ids.map((id) => [id, 5]));
    };
    const revisions = new Map([['a', 1]]);
    const reads = [
      figures.each(revisions, () => 'spend', compute, 0),
      figures.each(revisions, () => 'spend', compute, 0),
    ];
    await expect(reads[0]).rejects.toThrow('database gone');
    await expect(reads[1]).rejects.toThrow('database gone');
    fail = false;
    expect([...(await figures.each(revisions, () => 'spend', compute, 0))]).toEqual([['a', 5]]);
  });

  it('keeps a figure of several accounts until one of them moves or the accounts differ', async () => {
    const figures = new AccountFigures();
    const computed: string[] = [];
    const sumOf = (revisions: Map<string, number>, ids: string[], name = 'days|EUR') =>
      figures.across(revisions, ids, name, async () => {
        computed.push(ids.join(','));
        return ids.reduce((sum, id) => sum + (revisions.get(id) ?? 0), 0);
      });
    const at = new Map([
      ['a', 1],
      ['b', 1],
    ]);
    expect(await sumOf(at, ['a', 'b'])).toBe(2);
    expect(await sumOf(new Map(at), ['a', 'b'])).toBe(2);
    expect(computed).toEqual(['a,b']);
    // One account moved: computed again.
    expect(await sumOf(new Map([...at, ['b', 2]]), ['a', 'b'])).toBe(3);
    // The same revisions but one account fewer, or another name: computed again.
    expect(await sumOf(new Map([...at, ['b', 2]]), ['a'])).toBe(1);
    expect(await sumOf(new Map([...at, ['b', 2]]), ['a'], 'days|USD')).toBe(1);
    expect(computed).toEqual(['a,b', 'a,b', 'a', 'a']);
    // A failed computation keeps nothing: the next read computes.
    await expect(
      figures.across(at, ['a'], 'broken', () => Promise.reject(new Error('database gone'))),
    ).rejects.toThrow('database gone');
    expect(await figures.across(at, ['a'], 'broken', () => Promise.resolve(7))).toBe(7);
  });

  it('past its limit, drops an account not read since eviction last passed before one read since', async () => {
    const figures = new AccountFigures(3);
    const computed: string[][] = [];
    const read = (...ids: string[]) =>
      figures.each(
        new Map(ids.map((id) => [id, 1])),
        'spend',
        async (missing) => {
          computed.push(missing);
          return new Map(missing.map((id) => [id, id.charCodeAt(0)]));
        },
        0,
      );
    await read('a', 'b', 'c');
    await read('d'); // full: eviction passes a, b and c (a second chance each), then drops a
    await read('b'); // b read since
    await read('e'); // drops c, not read since, before b
    computed.length = 0;
    expect([...(await read('b'))]).toEqual([['b', 98]]);
    expect(computed).toEqual([]);
    expect([...(await read('c'))]).toEqual([['c', 99]]);
    expect(computed).toEqual([['c']]);
  });
});
