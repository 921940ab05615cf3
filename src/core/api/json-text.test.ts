import { describe, expect, it } from 'vitest';
import { KeptLines } from '../kept-lines';
import { jsonChunks, jsonText } from './json-text';

describe('jsonChunks', () => {
  it('writes what JSON.stringify writes, around kept values and without them', () => {
    const kept = new KeptLines<object>();
    const line = kept.keep('a', {
      name: 'Zoë “café” 🚀',
      spend: 12.5,
      results: [{ type: 'LEAD', n: 3 }],
      cap: null,
    });
    const answers = [
      { data: [{ a: 1 }, { b: 'x' }], pagination: { page: 1 } },
      { data: { generatedAt: '2026-11-29T10:00:00.000Z', items: kept.keepList('r1', [line, line]) } },
      { data: { items: [line], skipped: undefined, list: kept.keepList('r2', []) } },
      { ok: true, value: { items: kept.keepList('r3', [line]) } },
      { data: { at: new Date(0), items: kept.keepList('r1', [line]) } },
      [line, 'text', 3, null],
      'plain',
      null,
    ];
    for (const answer of answers) expect(jsonText(answer)).toBe(JSON.stringify(answer));
  });

  it('reuses the bytes of a kept value it wrote before, and only of kept values', () => {
    const kept = new KeptLines<{ id: string }>();
    const items = kept.keepList('reader', [kept.keep('a', { id: 'a' }), kept.keep('b', { id: 'b' })]);
    const listBytes = (chunks: Buffer[]) => chunks.find((chunk) => chunk.toString().startsWith('[{'));
    const first = jsonChunks({ data: { items } });
    expect(listBytes(jsonChunks({ data: { items } }))).toBe(listBytes(first));
    expect(Buffer.concat(first).toString()).toBe('{"data":{"items":[{"id":"a"},{"id":"b"}]}}');
    // A frozen value that no KeptLines handed out may hold objects that still change: written anew.
    const line = { id: 'c' };
    const frozen = Object.freeze([line]);
    expect(jsonText({ data: frozen })).toBe('{"data":[{"id":"c"}]}');
    line.id = 'd';
    expect(jsonText({ data: frozen })).toBe('{"data":[{"id":"d"}]}');
  });
});
