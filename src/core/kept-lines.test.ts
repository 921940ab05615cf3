import { describe, expect, it } from 'vitest';
import { KeptLines, sameJson } from './kept-lines';

describe('sameJson', () => {
  it('reads JSON-like values as JSON would', () => {
    expect(sameJson({ a: 1, b: [1, { c: 'x' }], d: null }, { b: [1, { c: 'x' }], a: 1, d: null })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJson({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(sameJson({ a: undefined }, { b: undefined })).toBe(false);
    expect(sameJson([1, 2], [1, 2, 3])).toBe(false);
    expect(sameJson([1], { 0: 1 })).toBe(false);
    expect(sameJson({ 0: 1 }, [1])).toBe(false);
    expect(sameJson({ a: { b: 1 } }, { a: { b: 2 } })).toBe(false);
    expect(sameJson(null, {})).toBe(false);
    expect(sameJson(0.1 + 0.2, 0.3)).toBe(false);
  });
});

describe('KeptLines', () => {
  it('hands back the kept line while it reads the same, and a new frozen one when it changed', () => {
    const kept = new KeptLines<{ id: string; spend: number; results: { n: number }[] }>();
    const first = kept.keep('ws|a', { id: 'a', spend: 1, results: [{ n: 2 }] });
    expect(Object.isFrozen(first) && Object.isFrozen(first.results[0])).toBe(true);
    expect(kept.keep('ws|a', { id: 'a', spend: 1, results: [{ n: 2 }] })).toBe(first);
    const moved = kept.keep('ws|a', { id: 'a', spend: 1, results: [{ n: 3 }] });
    expect(moved).not.toBe(first);
    expect(moved.results[0]?.n).toBe(3);
    // Lines are kept per key: another workspace's line of the same shape is its own.
    expect(kept.keep('ws2|a', { id: 'a', spend: 1, results: [{ n: 3 }] })).not.toBe(moved);
    expect(() => {
      (moved as { spend: number }).spend = 9;
    }).toThrow(TypeError);
  });

  it('freezes a kept line all the way down, past members frozen on top only', () => {
    const kept = new KeptLines<{ goal: { target: { value: number } } }>();
    const line = kept.keep('a', { goal: Object.freeze({ target: { value: 1 } }) });
    expect(Object.isFrozen(line.goal.target)).toBe(true);
  });

  it('hands back the kept list while it holds the same lines in the same order', () => {
    const kept = new KeptLines<{ id: string }>();
    const a = kept.keep('a', { id: 'a' });
    const b = kept.keep('b', { id: 'b' });
    const list = kept.keepList('reader', [a, b]);
    expect(Object.isFrozen(list)).toBe(true);
    expect(kept.keepList('reader', [a, b])).toBe(list);
    expect(kept.keepList('reader', [b, a])).not.toBe(list);
    expect(kept.keepList('reader', [b, a, { id: 'c' }])).toHaveLength(3);
    expect(kept.keepList('other reader', [b, a])).not.toBe(list);
  });
});
