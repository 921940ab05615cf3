// Accuracy on the scenario families (src/core/demo-platform/families): the held-out family is the
// headline (never tuned on: other seeds, mixes, ranges and account shapes), the tuning family is shown
// beside it. Per category precision and recall over material injected effects, healthy campaigns
// flagged, the account-wide controls, and the structure oracle over every recommendation.
import { TUNING_FAMILY } from '../src/core/demo-platform/families/spec';
import { controlsLine, scoreFamily, type FamilyReport } from './accuracy/families';
import { HELD_OUT_FAMILY } from './accuracy/held-out';
import { RULES } from './accuracy/oracle';
import { figure, type BenchFigure, type BenchSuite } from './harness';

function familyFigures(report: FamilyReport, headline: boolean): BenchFigure[] {
  const out: BenchFigure[] = [];
  const tag = report.family;
  const target = headline;
  for (const c of report.categories) {
    const counts = `tp ${c.tp} fp ${c.fp} fn ${c.fn}, mild found ${c.mildFound}/${c.mild}`;
    out.push(
      figure({
        suite: 'accuracy',
        name: `${tag}: precision ${c.category}`,
        value: c.precision ?? 0,
        unit: '',
        ...(target ? { target: { op: '>=' as const, value: 0.9, of: 'value' as const } } : {}),
        note: counts,
      }),
      figure({
        suite: 'accuracy',
        name: `${tag}: recall ${c.category}`,
        value: c.recall ?? 0,
        unit: '',
        ...(target ? { target: { op: '>=' as const, value: 0.9, of: 'value' as const } } : {}),
        note: counts,
      }),
    );
  }
  out.push(
    figure({
      suite: 'accuracy',
      name: `${tag}: healthy campaigns flagged`,
      value: report.healthy > 0 ? report.healthyFlagged / report.healthy : 0,
      unit: '',
      ...(target ? { target: { op: '<=' as const, value: 0.05, of: 'value' as const } } : {}),
      note: `${report.healthyFlagged} of ${report.healthy}; seeds ${report.seeds.join(',')}, ${report.accounts} accounts, ${report.campaigns} campaigns`,
    }),
  );
  const controls = report.controls;
  const ok = controls.filter((c) => c.ok).length;
  const campaignIssues = controls.reduce((a, c) => a + c.campaignIssues, 0);
  out.push(
    figure({
      suite: 'accuracy',
      name: `${tag}: account-level cases with exactly the expected account issue`,
      value: controls.length > 0 ? ok / controls.length : 0,
      unit: '',
      ...(target ? { target: { op: '>=' as const, value: 1, of: 'value' as const } } : {}),
      note: `${ok} of ${controls.length} produced exactly one account-level issue (budget change: none, not under-spending) and ${campaignIssues} campaign issues — ${controlsLine(report)}`,
    }),
  );
  const byRule = RULES.map((r) => `${r} ${report.violations.filter((v) => v.rule === r).length}`).join(', ');
  out.push(
    figure({
      suite: 'accuracy',
      name: `${tag}: recommendations impossible for their structure`,
      value: report.violations.length,
      unit: `of ${report.recommendationsChecked}`,
      ...(target ? { target: { op: '<=' as const, value: 0, of: 'value' as const } } : {}),
      note: byRule,
    }),
    figure({
      suite: 'accuracy',
      name: `${tag}: below-goal campaigns flagged (informational)`,
      value: report.belowGoal > 0 ? report.belowGoalFlagged / report.belowGoal : 0,
      unit: '',
      note: `${report.belowGoalFlagged} of ${report.belowGoal}; blocked campaigns found ${report.blockedFound} of ${report.blocked}; ${(report.ms / 1000).toFixed(1)} s`,
    }),
  );
  return out;
}

const suite: BenchSuite = {
  name: 'accuracy',
  async run() {
    const heldOut = scoreFamily(HELD_OUT_FAMILY);
    const tuning = scoreFamily(TUNING_FAMILY);
    return [...familyFigures(heldOut, true), ...familyFigures(tuning, false)];
  },
};

export default suite;
