import { describe, expect, it } from 'vitest';
import { fixedClock } from '../clock';
import { ResponseCache } from './response-cache';

describe('ResponseCache', () => {
  const clock = fixedClock('2026-11-29T10:00:00Z');

  it('keys answers by scope, URL, store version and minute', () => {
    let version = 'v1';
    const cache = new ResponseCache(() => version, clock);
    const key = cache.key('ws|live', '/v1/accounts');
    cache.set(key, Buffer.from('{"data":[]'));
    expect(cache.get(cache.key('ws|live', '/v1/accounts'))?.toString()).toBe('{"data":[]');
    expect(cache.get(cache.key('ws|test', '/v1/accounts'))).toBeUndefined();
    version = 'v2';
    expect(cache.get(cache.key('ws|live', '/v1/accounts'))).toBeUndefined();
  });

  it('keeps at most 32 MB of answers, the oldest going first', () => {
    const cache = new ResponseCache(() => 'v', clock);
    const mb = (n: number) => Buffer.alloc(2 ** 20, n);
    for (let i = 0; i < 40; i++) cache.set(`k${i}`, mb(i));
    const kept = Array.from({ length: 40 }, (_, i) => cache.get(`k${i}`) !== undefined);
    expect(kept.indexOf(true)).toBe(8);
    expect(kept.slice(8).every(Boolean)).toBe(true);
    // Storing a key again replaces its bytes rather than counting them twice.
    for (let i = 0; i < 10; i++) cache.set('k39', mb(1));
    expect(cache.get('k8')).toBeDefined();
    // An answer larger than the whole budget is not kept (and evicts nothing).
    cache.set('huge', Buffer.alloc(33 * 2 ** 20));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('k8')).toBeDefined();
  });

  it('keeps at most 500 answers', () => {
    const cache = new ResponseCache(() => 'v', clock);
    for (let i = 0; i < 600; i++) cache.set(`k${i}`, Buffer.from('{}'));
    expect(cache.get('k99')).toBeUndefined();
    expect(cache.get('k100')).toBeDefined();
    expect(cache.get('k599')).toBeDefined();
  });
});
