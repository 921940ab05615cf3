// andromedaContext.adaptations: one sentence saying what the profile and feedback changed compared
// with the default profile (MEDIUM risk appetite, CPA focus) and no feedback, on the same data.
import { APPETITE_FACTOR, type Thresholds } from './thresholds';
import { DEFAULT_PROFILE, feedbackWeight, type ActionKind, type Learned } from './andromeda';

const KIND_LABEL: Record<ActionKind, string> = {
  REFRESH_CREATIVE: 'creative refreshes',
  RAISE_LEARNING_BUDGET: 'learning fixes',
  CONSOLIDATE_AD_SETS: 'ad-set consolidation',
  FIX_UNDERDELIVERY: 'under-delivery fixes',
  CAP_OVERSPEND: 'overspend caps',
  SHIFT_BUDGET: 'budget shifts',
  CUT_BUDGET: 'budget cuts',
  EXPAND_AUDIENCE: 'audience expansion',
  SCALE_WINNER: 'scaling winners',
  WAIT_FOR_DATA: 'waiting for data',
  FIX_DELIVERY_BLOCKER: 'delivery blocker fixes',
  CHECK_TRACKING: 'tracking checks',
  HOLD_FOR_MARKET: 'holding through market moves',
};

function typeLabel(key: string): string {
  const [type, entity] = key.split('|');
  return `${(type ?? '').toLowerCase().replaceAll('_', ' ')} on “${entity ?? ''}”`;
}

export function describeAdaptations(input: {
  learned: Learned;
  th: Thresholds;
  issueKeys: string[];
  defaultIssueKeys: string[] | null;
  order: ActionKind[];
  defaultOrder: ActionKind[];
}): string {
  const { learned } = input;
  const parts: string[] = [];
  const appetite = learned.profile.riskAppetite;
  if (appetite !== DEFAULT_PROFILE.riskAppetite) {
    const factor = APPETITE_FACTOR[appetite];
    const direction =
      factor < 1
        ? `lowered detection thresholds by ${Math.round((1 - factor) * 100)}%`
        : `raised detection thresholds by ${Math.round((factor - 1) * 100)}%`;
    let effect = '';
    if (input.defaultIssueKeys) {
      const added = input.issueKeys.filter((k) => !input.defaultIssueKeys?.includes(k));
      const removed = input.defaultIssueKeys.filter((k) => !input.issueKeys.includes(k));
      if (added.length > 0) effect = `, adding ${added.map(typeLabel).join(', ')}`;
      else if (removed.length > 0) effect = `, leaving out ${removed.map(typeLabel).join(', ')}`;
      else effect = ', which changed no finding here';
    }
    parts.push(
      `${appetite} risk appetite ${direction} (e.g. CTR drop for fatigue ${Math.round(input.th.fatigueCtrDrop * 100)}%)${effect}`,
    );
  }
  if (learned.profile.focusMetric !== DEFAULT_PROFILE.focusMetric) {
    parts.push(
      `the ${learned.profile.focusMetric} focus ranked actions by their effect on ${learned.profile.focusMetric}`,
    );
  }
  const weighted = [...learned.feedback.entries()].filter(([, s]) => feedbackWeight(s) !== 1);
  if (weighted.length > 0) {
    const shown = weighted
      .sort((a, b) => a[0].localeCompare(b[0]))
      .slice(0, 3)
      .map(
        ([kind, s]) =>
          `${KIND_LABEL[kind]} ${feedbackWeight(s) > 1 ? 'up' : 'down'} (${s.applied} applied, ${s.dismissed} dismissed)`,
      );
    parts.push(`your feedback weighted ${shown.join(', ')}`);
  }
  const reordered = input.order.join() !== input.defaultOrder.join();
  if (parts.length === 0) {
    return learned.customized
      ? 'Your profile matches the defaults (MEDIUM risk appetite, CPA focus) and there is no feedback yet, so standard thresholds and ranking apply.'
      : 'No Andromeda profile or feedback yet: default thresholds (MEDIUM risk appetite) and ranking by effect on CPA apply.';
  }
  const ranking =
    input.order.length > 0
      ? !reordered
        ? '; the order of recommendations is the same as with the defaults'
        : input.order[0] !== input.defaultOrder[0]
          ? `; as a result ${KIND_LABEL[input.order[0] as ActionKind]} rank first instead of ${KIND_LABEL[input.defaultOrder[0] as ActionKind]}`
          : `; as a result the recommendations after the first were reordered (${input.order.map((k) => KIND_LABEL[k]).join(', ')})`
      : '';
  const sentence = parts.join('; ');
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}${ranking}.`;
}
