import { describe, expect, it } from 'vitest';
import { money } from './format';
import { topDistinct, type Candidate } from './recommendations';

const candidate = (key: string, kind: Candidate['kind']): Candidate => ({
  kind,
  key,
  action: key,
  rationale: '',
  expectedImpact: '',
  riskLevel: 'MEDIUM',
  relatedIssues: [],
  base: 1,
  changes: [],
});

describe('choosing the 1-3 recommendations', () => {
  it('gives each kind of action a place before any kind gets a second, keeping rank order', () => {
    const ranked = [
      candidate('cut budget A', 'CAP_OVERSPEND'),
      candidate('cut budget B', 'CAP_OVERSPEND'),
      candidate('cut budget C', 'CAP_OVERSPEND'),
      candidate('refresh creative', 'REFRESH_CREATIVE'),
    ];
    expect(topDistinct(ranked).map((c) => c.key)).toEqual([
      'cut budget A',
      'cut budget B',
      'refresh creative',
    ]);
  });

  it('fills with the best of one kind when there is only one kind', () => {
    const ranked = ['a', 'b', 'c', 'd'].map((k) => candidate(k, 'CAP_OVERSPEND'));
    expect(topDistinct(ranked).map((c) => c.key)).toEqual(['a', 'b', 'c']);
  });
});

describe('money in sentences', () => {
  it("uses the currency's own minor digits", () => {
    expect(money(61_923_330_000, 'JPY')).toBe('¥61,923');
    expect(money(61_923_330_000, 'USD')).toBe('$61,923.33');
    expect(money(1_500_000, 'EUR')).toBe('€1.50');
  });
});
