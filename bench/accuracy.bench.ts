// Accuracy on the scenario families (src/core/demo-platform/families): the held-out family is the
// headline (never tuned on: other seeds, mixes, ranges and account shapes), the tuning family is shown
// beside it. Per category precision and recall over material injected effects, healthy campaigns
// flagged, the account-wide controls, and the structure oracle over every recommendation.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
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

/** Files under src/ and unit tests anywhere that name the held-out family's seeds or import it. */
function heldOutReferences(): string[] {
  const root = join(import.meta.dirname, '..');
  const files: string[] = [];
  const walk = (dir: string, all: boolean): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, all);
      else if (/\.tsx?$/.test(entry.name) && (all || /\.test\.tsx?$/.test(entry.name))) files.push(path);
    }
  };
  walk(join(root, 'src'), true);
  walk(join(root, 'bench'), false);
  walk(join(root, 'e2e'), false);
  const seeds = new RegExp(`\\b(${HELD_OUT_FAMILY.seeds.join('|')})\\b|accuracy/held-out`);
  return files.filter((f) => seeds.test(readFileSync(f, 'utf8'))).map((f) => relative(root, f));
}

const suite: BenchSuite = {
  name: 'accuracy',
  async run() {
    const heldOut = scoreFamily(HELD_OUT_FAMILY);
    const tuning = scoreFamily(TUNING_FAMILY);
    const leaks = heldOutReferences();
    return [
      ...familyFigures(heldOut, true),
      ...familyFigures(tuning, false),
      figure({
        suite: 'accuracy',
        name: 'files under src/ or unit tests naming the held-out family',
        value: leaks.length,
        unit: '',
        target: { op: '<=', value: 0, of: 'value' },
        note:
          leaks.length > 0
            ? leaks.join(', ')
            : `seeds ${HELD_OUT_FAMILY.seeds.join(',')} appear only in bench`,
      }),
    ];
  },
};

export default suite;
