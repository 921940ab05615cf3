// Error analysis on the TUNING family only (never the held-out one): prints every miss and false
// alarm of the categories given on the command line, with the injected effect sizes.
// Usage: node --import tsx bench/tools/tuning-misses.ts CREATIVE_FATIGUE CPA_DEGRADATION
import { TUNING_FAMILY } from '../../src/core/demo-platform/families/spec';
import { scoreFamily } from '../accuracy/families';

const categories = process.argv.slice(2);
const report = scoreFamily(TUNING_FAMILY, { perCampaignOracle: false });
for (const c of report.categories)
  if (categories.length === 0 || categories.includes(c.category))
    console.log(
      `${c.category}: P ${c.precision?.toFixed(2)} R ${c.recall?.toFixed(2)} (${c.tp}/${c.fp}/${c.fn})`,
    );
console.log(
  `healthy flagged ${report.healthyFlagged}/${report.healthy}, below goal ${report.belowGoalFlagged}/${report.belowGoal}, ` +
    `controls ${report.controls.filter((c) => c.ok).length}/${report.controls.length}, impossible ${report.violations.length}/${report.recommendationsChecked}`,
);
for (const o of report.outcomes) {
  for (const cat of categories) {
    const hit = o.found.includes(cat as never);
    const miss = o.truth === cat && o.material && !hit;
    const fa = o.truth !== cat && hit && !(o.truth === 'BELOW_GOAL' && cat === 'CPA_DEGRADATION');
    if (miss || fa)
      console.log(
        `${miss ? 'MISS' : 'FALSE'} ${cat} ${o.accountId} ${o.campaignId} truth=${o.truth} effect=${o.effect} effect2=${o.effect2} found=${o.found.join(',')}`,
      );
  }
}
