// The analyst's target CPA for one campaign. Diagnostics measure CPA against a cost cap where there is
// one, else against this target, else against the campaign's own baseline; the CPA chart draws it.
import { useState, type FormEvent } from 'react';
import { useCallMutation } from '../../api/hooks';
import { money } from '../../format';

export function TargetCpaForm(props: {
  campaignId: string;
  targetCpa: number | null;
  currency: string;
  hasCostCap: boolean;
}): React.JSX.Element {
  const { campaignId, targetCpa, currency } = props;
  const [value, setValue] = useState(targetCpa === null ? '' : String(targetCpa));
  const [saved, setSaved] = useState<string | null>(null);
  const save = useCallMutation('campaigns.setTargetCpa', ['campaigns', 'diagnostics']);
  const amount = Number(value);
  const valid = value.trim() !== '' && Number.isFinite(amount) && amount > 0;

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    if (!valid) return;
    save.mutate(
      { campaignId, targetCpa: amount },
      { onSuccess: (r) => setSaved(`Saved: ${money(r.targetCpa, currency)}.`) },
    );
  };
  const clear = (): void =>
    save.mutate(
      { campaignId, targetCpa: null },
      {
        onSuccess: () => {
          setValue('');
          setSaved('Cleared: diagnostics use the cost cap or the campaign’s baseline.');
        },
      },
    );

  return (
    <form className="target-cpa panel" onSubmit={submit} aria-label="Target CPA">
      <label className="field-inline">
        <span>Target CPA (account currency)</span>
        <span className="input-affix">
          <input
            type="number"
            inputMode="decimal"
            min="0.01"
            step="0.01"
            placeholder="Not set"
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              setSaved(null);
            }}
          />
          <span className="muted">{currency}</span>
        </span>
      </label>
      <div className="target-cpa-actions">
        <button type="submit" className="button" disabled={!valid || save.isPending}>
          Save target
        </button>
        <button
          type="button"
          className="button subtle"
          disabled={targetCpa === null || save.isPending}
          onClick={clear}
        >
          Clear
        </button>
      </div>
      <div className="target-cpa-note">
        <p className="small">
          Current target: <strong>{targetCpa === null ? 'none' : money(targetCpa, currency)}</strong>
          {saved ? (
            <span className="muted" role="status">
              {' '}
              · {saved}
            </span>
          ) : null}
        </p>
        <p className="hint">
          {props.hasCostCap
            ? 'This campaign has a cost cap: diagnostics compare CPA with the cap first.'
            : 'Diagnostics compare CPA with a cost cap where there is one, else with this target, else with the campaign’s own baseline.'}
        </p>
        {save.error ? (
          <p className="form-error small" role="alert">
            {save.error.message}
          </p>
        ) : null}
      </div>
    </form>
  );
}
