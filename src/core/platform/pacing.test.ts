import { describe, expect, it } from 'vitest';
import { paceDelayMs, Pacer, pacerFor } from './pacing';

describe('pacing from usage headers', () => {
  it('slows down progressively as usage climbs', () => {
    expect(paceDelayMs(0)).toBe(0);
    expect(paceDelayMs(59)).toBe(0);
    const steps = [65, 75, 85, 95, 100].map(paceDelayMs);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(new Set(steps).size).toBe(steps.length);
    expect(paceDelayMs(100)).toBe(8_000);
  });

  it('waits out estimated_time_to_regain_access, then goes back to the usage pace', () => {
    let now = 1_000_000;
    const pacer = new Pacer(() => now);
    pacer.observe({ maxPercent: 100, regainAccessMs: 120_000 });
    expect(pacer.delayMs()).toBe(120_000);
    now += 100_000;
    expect(pacer.delayMs()).toBe(20_000);
    now += 20_000;
    pacer.observe({ maxPercent: 40, regainAccessMs: 0 });
    expect(pacer.delayMs()).toBe(0);
  });

  it('is shared by the syncs of one account and separate for other accounts and platforms', () => {
    const a = pacerFor('http://127.0.0.1:1', 'act_1');
    expect(pacerFor('http://127.0.0.1:1', 'act_1')).toBe(a);
    expect(pacerFor('http://127.0.0.1:1', 'act_2')).not.toBe(a);
    expect(pacerFor('https://graph.facebook.com', 'act_1')).not.toBe(a);
  });
});
