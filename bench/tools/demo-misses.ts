// Error analysis on the default demo world (the regression guard, not a held-out family): prints every
// miss and false alarm of the categories given, with the finding's description.
// Usage: node --import tsx bench/tools/demo-misses.ts CPA_DEGRADATION
import { addDays } from '../../src/core/clock';
import { DEFAULT_PROFILE } from '../../src/core/diagnostics/andromeda';
import { diagnose, loadFromDate } from '../../src/core/diagnostics/engine';
import { loadCampaigns } from '../../src/core/diagnostics/load';
import { syncDemo } from '../accuracy/accuracy';

const categories = process.argv.slice(2);
const TODAY = '2026-03-15';
const RANGE_DAYS = 21;
const from = addDays(TODAY, -(RANGE_DAYS - 1));
async function main(): Promise<void> {
  for (const seed of [101, 102, 103]) {
    const synced = await syncDemo({ seed, today: TODAY });
    try {
      for (const entry of synced.truth) {
        const id = synced.campaignIds.get(entry.platformCampaignId);
        if (!id) continue;
        const [data] = loadCampaigns(synced.core.db, [id], loadFromDate(from, TODAY), TODAY);
        if (!data) continue;
        const content = diagnose({
          campaigns: [data],
          from,
          to: TODAY,
          learned: { profile: DEFAULT_PROFILE, customized: false, feedback: new Map() },
        });
        for (const cat of categories) {
          const issue = content.issues.find((i) => i.type === cat);
          if (entry.category === cat && !issue) console.log(`MISS ${cat} seed ${seed} ${data.name}`);
          if (entry.category !== cat && issue)
            console.log(
              `FALSE ${cat} seed ${seed} ${data.name} truth=${entry.category}: ${issue.description}`,
            );
        }
      }
    } finally {
      synced.dispose();
    }
  }
}

void main();
