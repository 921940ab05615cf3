import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../kept-lines';
import { jsonChunks, jsonText } from './json-text';

describe('jsonChunks', () => {
  it('writes what JSON.stringify writes, around frozen values and without them', () => {
    const line = deepFreeze({
      name: 'Zoë “café” 🚀',
      spend: 12.5,
      results: [{ type: 'LEAD', n: 3 }],
      cap: null,
    });
    const answers = [
      { data: [{ a: 1 }, { b: 'x' }], pagination: { page: 1 } },
      { data: { generatedAt: '2026-11-29T10:00:00.000Z', items: deepFreeze([line, line]) } },
      { data: { items: [line], skipped: undefined, list: deepFreeze([undefined, 1]) } },
      { ok: true, value: { items: deepFreeze([]) } },
      { data: { at: new Date(0), items: deepFreeze([line]) } },
      [line, 'text', 3, null],
      'plain',
      null,
    ];
    for (const answer of answers) expect(jsonText(answer)).toBe(JSON.stringify(answer));
  });

  it('reuses the bytes of a frozen value it wrote before', () => {
    const items = deepFreeze([{ id: 'a' }, { id: 'b' }]);
    const first = jsonChunks({ data: { items } });
    const second = jsonChunks({ data: { items } });
    const bytesOf = (chunks: Buffer[]) => chunks.find((chunk) => chunk.toString().startsWith('[{'));
    expect(bytesOf(second)).toBe(bytesOf(first));
    expect(Buffer.concat(second).toString()).toBe('{"data":{"items":[{"id":"a"},{"id":"b"}]}}');
  });
});
