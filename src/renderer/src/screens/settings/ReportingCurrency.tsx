// The agency's reporting currency in Settings: the currency whole-workspace insights are totalled in
// when accounts use several, and one exchange rate per other currency of the workspace's accounts.
// Rates go to the core exactly as typed (decimal strings); its check is the one rule, shown inline.
import { useState, type FormEvent } from 'react';
import type { SettingsView } from '../../../../shared/ipc';
import { useCall, useCallMutation } from '../../api/hooks';
import { ErrorState, Loading } from '../../components/ui';

const RATE_PATH = /(?:reportingCurrency[.:] ?)?rates\.([A-Z]{3}): /g;

/** The currencies whose rate the core refused ("reportingCurrency.rates.EUR: …"). */
const badRatesOf = (message: string | undefined): Set<string> =>
  new Set([...(message ?? '').matchAll(RATE_PATH)].map((m) => m[1] ?? ''));

/** The core's message in the screen's words: "EUR rate: a rate is …". */
const readable = (message: string): string =>
  message
    .replace(RATE_PATH, '$1 rate: ')
    .replace(/reportingCurrency(?:\.currency)?: /g, 'Reporting currency: ');

export function ReportingCurrency(props: { settings: SettingsView }): React.JSX.Element {
  const accounts = useCall('accounts.list', {});
  const update = useCallMutation('settings.update', ['settings', 'insights']);
  const current = props.settings.reportingCurrency;
  const [currency, setCurrency] = useState(current?.currency ?? 'USD');
  const [rates, setRates] = useState<Record<string, string>>(current?.rates ?? {});
  if (accounts.isPending) return <Loading />;
  if (accounts.isError) return <ErrorState error={accounts.error} onRetry={() => void accounts.refetch()} />;
  const code = currency.trim().toUpperCase();
  const used = [...new Set(accounts.data.map((a) => a.currency))].sort();
  const others = used.filter((c) => c !== code);
  const badRates = badRatesOf(update.error?.message);
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const entered = Object.fromEntries(others.map((c) => [c, (rates[c] ?? '').trim()]));
    update.mutate({ reportingCurrency: { currency: code, rates: entered } });
  };
  return (
    <>
      <p className="muted small">
        When your accounts use several currencies, Insights on all accounts shows one total per currency, and
        with a rate for each of them also the totals in this currency.
        {current ? (
          <>
            {' '}
            Now: <strong data-testid="reporting-currency">{current.currency}</strong>.
          </>
        ) : null}
      </p>
      <form className="form form-row" onSubmit={submit} aria-label="Reporting currency and rates">
        <label>
          Reporting currency
          <input
            value={currency}
            maxLength={3}
            autoComplete="off"
            spellCheck={false}
            list="used-currencies"
            aria-describedby="reporting-currency-hint"
            onChange={(e) => setCurrency(e.target.value.toUpperCase())}
          />
        </label>
        <datalist id="used-currencies">
          {used.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
        {others.map((c) => (
          <label key={c}>
            {`${c} rate (${code || '…'} per ${c})`}
            <input
              inputMode="decimal"
              autoComplete="off"
              placeholder="e.g. 1.0842"
              value={rates[c] ?? ''}
              aria-invalid={badRates.has(c) ? true : undefined}
              onChange={(e) => setRates({ ...rates, [c]: e.target.value })}
            />
          </label>
        ))}
        <button type="submit" className="button primary" disabled={update.isPending || code.length !== 3}>
          Save reporting currency
        </button>
        {current ? (
          <button
            type="button"
            className="button"
            disabled={update.isPending}
            onClick={() => update.mutate({ reportingCurrency: null }, { onSuccess: () => setRates({}) })}
          >
            Clear
          </button>
        ) : null}
      </form>
      <p className="hint" id="reporting-currency-hint">
        An ISO 4217 code such as USD; each rate is how many units of it one unit of the other currency is
        worth.
      </p>
      {update.error ? (
        <p className="form-error" role="alert">
          {readable(update.error.message)}
        </p>
      ) : (
        <p className="muted small" role="status">
          {update.isSuccess ? (current ? 'Saved.' : 'Cleared.') : ''}
        </p>
      )}
    </>
  );
}
