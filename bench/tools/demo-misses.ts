// Error analysis on the default demo world (the regression guard, not a held-out family): prints every
// miss and false alarm of the categories given, with the finding's description, from the same scoring
// the diagnostics bench runs (seeds 101-103, the last 21 days).
// Usage: node --import tsx bench/tools/demo-misses.ts CPA_DEGRADATION
import type { IssueType } from '../../src/shared/api/diagnostics';
import { scoreAccuracy, syncDemo } from '../accuracy/accuracy';

const categories = process.argv.slice(2) as IssueType[];

async function main(): Promise<void> {
  for (const seed of [101, 102, 103]) {
    const synced = await syncDemo({ seed, today: '2026-03-15' });
    try {
      for (const o of (await scoreAccuracy(synced, 21)).outcomes) {
        for (const cat of categories) {
          const found = o.detected.includes(cat);
          if (o.truth === cat && !found) console.log(`MISS ${cat} seed ${seed} ${o.name}`);
          if (o.truth !== cat && found)
            console.log(`FALSE ${cat} seed ${seed} ${o.name} truth=${o.truth}: ${o.descriptions[cat] ?? ''}`);
        }
      }
    } finally {
      synced.dispose();
    }
  }
}

void main();
