// Insights across currencies: one total per currency, each in its own money (never added together),
// and a note saying whether the usual figures below are converted at the agency's rates.
import type { HandlerResult } from '../../../../shared/ipc';
import { NumericHeaders, Trend } from '../../components/ui';
import { compact, integer, money, percent, ratio } from '../../format';
import { href } from '../../router';

type Summary = HandlerResult<'insights.summary'>;
type CurrencyRow = NonNullable<Summary['currencies']>[number];

/** "EUR 1.0842, GBP 1.2710": the rates the core used, as entered. */
const ratesText = (rates: Record<string, string>): string =>
  Object.entries(rates)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, rate]) => `${code} ${rate}`)
    .join(', ');

/** Whether the figures shown are converted (and at which rates), with the way to Settings. */
export function ConversionNote(props: { conversion: Summary['conversion'] }): React.JSX.Element {
  const conversion = props.conversion;
  return (
    <p className="currency-note" data-testid="currency-note">
      {conversion ? (
        <>
          Totals in {conversion.currency} at the agency&apos;s rates ({ratesText(conversion.rates)}).{' '}
        </>
      ) : (
        <>
          Your accounts use several currencies, so totals are shown per currency. Set a reporting currency
          with exchange rates to see them together.{' '}
        </>
      )}
      <a href={href('/settings')}>Reporting currency in Settings</a>
    </p>
  );
}

export function CurrencyTotals(props: { summary: Summary }): React.JSX.Element {
  const rows: CurrencyRow[] = props.summary.currencies ?? [];
  // ROAS is a ratio, the same in any currency; shown only when some currency has purchase value.
  const hasRoas = rows.some((r) => r.totals.roas !== null);
  return (
    <section className="section" aria-labelledby="currencies-title">
      <h2 id="currencies-title">Totals per currency</h2>
      <div className="table-wrap">
        <table className="data-table static" aria-labelledby="currencies-title">
          <thead>
            <tr>
              <th scope="col">Currency</th>
              <NumericHeaders
                labels={['Accounts', 'Spend', 'Impressions', 'Clicks', 'CTR', 'CPM', hasRoas ? 'ROAS' : null]}
              />
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.currency}>
                <td>
                  <strong>{r.currency}</strong>
                </td>
                <td className="num">{integer(r.accounts)}</td>
                <td className="num">
                  {money(r.totals.spend, r.currency)}
                  {r.trends.spendChange === null ? null : (
                    <>
                      {' '}
                      <Trend change={r.trends.spendChange} goodWhen="neutral" />
                    </>
                  )}
                </td>
                <td className="num">{compact(r.totals.impressions)}</td>
                <td className="num">{integer(r.totals.clicks)}</td>
                <td className="num">{percent(r.totals.ctr)}</td>
                <td className="num">{money(r.totals.cpm, r.currency)}</td>
                {hasRoas ? <td className="num">{ratio(r.totals.roas)}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="hint">
        Results and cost per result are counted per result type: choose one account
        {props.summary.conversion ? `, or see them below in ${props.summary.conversion.currency}` : ''}.
      </p>
    </section>
  );
}
