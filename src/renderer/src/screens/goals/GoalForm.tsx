// The goal of an account or of one campaign: a target CPA, a target ROAS or break-even (ROAS 1),
// shown next to the actual. Diagnostics judge campaigns against it (a campaign's own goal, else its
// account's): below the goal is never "healthy", and findings are ranked by the money that missed it.
import { useState, type FormEvent } from 'react';
import type { Goal, GoalKind } from '../../../../shared/api/goals';
import { useCall, useCallMutation } from '../../api/hooks';
import { money, ratio } from '../../format';

type Choice = 'CPA' | 'ROAS' | 'BREAK_EVEN';

const choiceOf = (goal: Goal | null): Choice =>
  !goal ? 'ROAS' : goal.kind === 'ROAS' && goal.target === 1 ? 'BREAK_EVEN' : goal.kind;

export function goalText(goal: Goal, currency: string): string {
  if (goal.kind === 'CPA') return `target CPA ${money(goal.target, currency)}`;
  return goal.target === 1 ? 'break-even (ROAS 1.00)' : `target ROAS ${ratio(goal.target)}`;
}

/** "ROAS 0.75 · 63% below the goal" — the actual beside the goal. */
function standing(goal: Goal, actual: { cpa: number | null; roas: number | null }, currency: string) {
  if (goal.kind === 'CPA') {
    if (actual.cpa === null) return { text: 'CPA: no results yet', below: false };
    const below = actual.cpa > goal.target;
    const by = Math.round(Math.abs(actual.cpa / goal.target - 1) * 100);
    return {
      text: `CPA ${money(actual.cpa, currency)} · ${by}% ${below ? 'above' : 'under'} the target`,
      below,
    };
  }
  if (actual.roas === null) return { text: 'ROAS: no spend yet', below: false };
  const below = actual.roas < goal.target;
  const by = Math.round(Math.abs(1 - actual.roas / goal.target) * 100);
  return { text: `ROAS ${ratio(actual.roas)} · ${by}% ${below ? 'below' : 'above'} the goal`, below };
}

function validate(choice: Choice, value: string): { goal: Goal } | { error: string } {
  if (choice === 'BREAK_EVEN') return { goal: { kind: 'ROAS', target: 1 } };
  const target = Number(value);
  if (value.trim() === '' || !Number.isFinite(target) || target <= 0) {
    return { error: choice === 'CPA' ? 'Enter a target CPA above zero.' : 'Enter a target ROAS above zero.' };
  }
  if (choice === 'ROAS' && target > 100) return { error: 'A ROAS target is a ratio: 3 means 300%.' };
  return { goal: { kind: choice as GoalKind, target } };
}

export function GoalForm(props: {
  accountId: string;
  /** Absent: the account's goal. */
  campaignId?: string;
  currency: string;
  actual: { cpa: number | null; roas: number | null };
  /** Where the actual was measured, e.g. "last 30 days". */
  actualLabel: string;
}): React.JSX.Element {
  const { accountId, campaignId, currency } = props;
  const campaignGoal = useCall('goals.campaign', { campaignId: campaignId ?? '' }, { enabled: !!campaignId });
  const accountGoals = useCall('goals.list', { accountId }, { enabled: !campaignId });
  const own = campaignId ? (campaignGoal.data?.own ?? null) : (accountGoals.data?.account ?? null);
  const effective = campaignId
    ? (campaignGoal.data?.effective ?? null)
    : own
      ? { ...own, source: 'account' as const }
      : null;
  const loaded = campaignId ? campaignGoal.isSuccess : accountGoals.isSuccess;

  const [choice, setChoice] = useState<Choice | null>(null);
  const [value, setValue] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const save = useCallMutation('goals.set', ['goals', 'campaigns', 'diagnostics']);
  const clear = useCallMutation('goals.clear', ['goals', 'campaigns', 'diagnostics']);
  const shownChoice = choice ?? choiceOf(own);
  const shownValue = value ?? (own && choiceOf(own) !== 'BREAK_EVEN' ? String(own.target) : '');
  const label = campaignId ? 'Campaign goal' : 'Account goal';

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const checked = validate(shownChoice, shownValue);
    if ('error' in checked) {
      setProblem(checked.error);
      return;
    }
    setProblem(null);
    save.mutate(
      { accountId, campaignId: campaignId ?? null, ...checked.goal },
      { onSuccess: (g) => setSaved(`Saved: ${goalText(g, currency)}.`) },
    );
  };
  const onClear = (): void =>
    clear.mutate(
      { accountId, campaignId: campaignId ?? null },
      {
        onSuccess: () => {
          setChoice(null);
          setValue(null);
          setSaved(
            campaignId
              ? 'Cleared: the campaign follows the account goal.'
              : 'Cleared: campaigns without their own goal have none.',
          );
        },
      },
    );
  const now = effective ? standing(effective, props.actual, currency) : null;
  const error = problem ?? save.error?.message ?? clear.error?.message ?? null;
  const inputId = `goal-target-${campaignId ?? accountId}`;

  return (
    <form className="target-cpa panel goal-form" onSubmit={submit} aria-label={label} noValidate>
      <label className="field-inline">
        <span>{label}</span>
        <select
          value={shownChoice}
          aria-label={`${label} kind`}
          onChange={(e) => {
            setChoice(e.target.value as Choice);
            setProblem(null);
            setSaved(null);
          }}
        >
          <option value="CPA">Target CPA</option>
          <option value="ROAS">Target ROAS</option>
          <option value="BREAK_EVEN">Break-even (ROAS 1)</option>
        </select>
      </label>
      {shownChoice !== 'BREAK_EVEN' ? (
        <label className="field-inline" htmlFor={inputId}>
          <span>{shownChoice === 'CPA' ? `Target CPA (${currency})` : 'Target ROAS (3 = 300%)'}</span>
          <span className="input-affix">
            <input
              id={inputId}
              type="number"
              inputMode="decimal"
              min="0.01"
              step="0.01"
              placeholder="Not set"
              aria-invalid={problem !== null}
              value={shownValue}
              onChange={(e) => {
                setValue(e.target.value);
                setProblem(null);
                setSaved(null);
              }}
            />
            <span className="muted">{shownChoice === 'CPA' ? currency : '×'}</span>
          </span>
        </label>
      ) : null}
      <div className="target-cpa-actions">
        <button type="submit" className="button" disabled={save.isPending}>
          Save goal
        </button>
        <button
          type="button"
          className="button subtle"
          disabled={own === null || clear.isPending}
          onClick={onClear}
        >
          Clear
        </button>
      </div>
      <div className="target-cpa-note">
        <p className="small goal-standing">
          Goal:{' '}
          <strong>
            {!loaded
              ? '…'
              : effective
                ? `${goalText(effective, currency)}${campaignId && effective.source === 'account' ? ' (account goal)' : ''}`
                : 'none'}
          </strong>
          {now ? (
            <>
              {' '}
              · Actual, {props.actualLabel}:{' '}
              <strong className={now.below ? 'goal-below' : 'goal-met'}>{now.text}</strong>
            </>
          ) : null}
          {saved ? (
            <span className="muted" role="status">
              {' '}
              · {saved}
            </span>
          ) : null}
        </p>
        <p className="hint">
          Diagnostics judge each campaign against its own goal, else the account&apos;s; without one, a sales
          campaign below break-even is flagged, and others are shown beside their baseline and the account
          median.
        </p>
        {error ? (
          <p className="form-error small" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    </form>
  );
}
