// The portfolio home, the first screen: every connected account on one line, sorted by what needs the
// analyst first (the core's attention score), one click or Enter into the account's overview. Arrow
// keys move between rows. Amounts stay in each account's currency; results stay per result type.
import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { PortfolioRow, ResultGroup } from '../../../shared/api/portfolio';
import { useCall } from '../api/hooks';
import { Empty, ErrorState, Loading, PageHeader, StatusPill } from '../components/ui';
import { integer, money, ratio, relative } from '../format';
import { href, navigate } from '../router';

const PACE_LABEL: Record<PortfolioRow['pace'], string> = {
  on_track: 'On track',
  behind: 'Behind',
  ahead: 'Ahead',
  unknown: 'No budget',
};
const PACE_TONE: Record<PortfolioRow['pace'], string> = {
  on_track: 'active',
  behind: 'paused',
  ahead: 'failed',
  unknown: 'closed',
};

export function ResultsCell(props: { results: readonly ResultGroup[]; currency: string }): React.JSX.Element {
  if (props.results.length === 0) return <span className="muted">No results this month</span>;
  return (
    <ul className="result-list">
      {props.results.slice(0, 3).map((g) => (
        <li key={`${g.resultType}-${g.resultName}`}>
          <strong>{integer(g.results)}</strong> {g.resultName ?? 'results'}
          <span className="muted">
            {' '}
            · {money(g.costPerResult, props.currency)} each{g.roas !== null ? ` · ROAS ${ratio(g.roas)}` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}

function SpendCell(props: { row: PortfolioRow }): React.JSX.Element {
  const r = props.row;
  return (
    <div className="spend-cell">
      <div>
        <strong>{money(r.spendThisMonth, r.currency)}</strong>
        {r.monthlyBudget !== null ? (
          <span className="muted"> of {money(r.monthlyBudget, r.currency, 0)} budget</span>
        ) : null}
      </div>
      {r.blocked ? null : (
        <div className="spend-meta">
          <StatusPill status={PACE_TONE[r.pace]} label={PACE_LABEL[r.pace]} />
          {r.paceRatio !== null ? (
            <span className="muted small">{Math.round(r.paceRatio * 100)}% of plan</span>
          ) : null}
        </div>
      )}
      {r.spendCap ? (
        <div className={`small ${r.spendCap.runsOutOn || r.spendCap.remaining <= 0 ? 'text-bad' : 'muted'}`}>
          Cap: {money(r.spendCap.remaining, r.currency, 0)} left
          {r.spendCap.runsOutOn ? ` · runs out ${r.spendCap.runsOutOn.slice(5)}` : ''}
        </div>
      ) : null}
    </div>
  );
}

function IssuesCell(props: { row: PortfolioRow }): React.JSX.Element {
  const counts = props.row.issues;
  const shown = (['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const).filter((s) => counts[s] > 0);
  if (shown.length === 0) return <span className="muted">None</span>;
  return (
    <span className="issue-counts">
      {shown.map((s) => (
        <span key={s} className={`badge risk-${s.toLowerCase()}`} title={`${counts[s]} ${s.toLowerCase()}`}>
          {counts[s]} {s[0]}
          {s.slice(1).toLowerCase()}
        </span>
      ))}
    </span>
  );
}

function GoalCell(props: { row: PortfolioRow }): React.JSX.Element {
  const g = props.row.goal;
  if (!g) return <span className="muted">No goal</span>;
  const actual = g.kind === 'CPA' ? money(g.actual, props.row.currency) : ratio(g.actual);
  const target = g.kind === 'CPA' ? money(g.target, props.row.currency) : ratio(g.target);
  const tone = g.status === 'met' ? 'active' : g.status === 'missed' ? 'failed' : 'closed';
  return (
    <div>
      <StatusPill
        status={tone}
        label={g.status === 'met' ? 'Goal met' : g.status === 'missed' ? 'Goal missed' : 'No data'}
      />
      <div className="small muted">
        {g.kind} {actual} vs {target}
      </div>
    </div>
  );
}

export default function Portfolio(): React.JSX.Element {
  const portfolio = useCall('portfolio.home', {}, { refetchInterval: 60_000 });
  const body = useRef<HTMLTableSectionElement>(null);
  const ready = portfolio.isSuccess;
  useEffect(() => {
    // A readiness signal for tests and the UI bench: rows are on screen and handlers attached.
    if (ready) performance.mark('adlens:portfolio-interactive');
  }, [ready]);
  if (portfolio.isPending) return <Loading label="Loading your accounts…" />;
  if (portfolio.isError)
    return <ErrorState error={portfolio.error} onRetry={() => void portfolio.refetch()} />;
  const rows = portfolio.data.items;
  const open = (row: PortfolioRow): void => navigate(`/accounts/${row.accountId}`);
  const onKey = (e: KeyboardEvent<HTMLTableRowElement>, index: number, row: PortfolioRow): void => {
    if (e.key === 'Enter') open(row);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next = body.current?.rows[index + (e.key === 'ArrowDown' ? 1 : -1)];
      next?.focus();
    }
  };
  const attention = rows.filter((r) => r.attention.score > 0).length;
  return (
    <>
      <PageHeader
        title="Portfolio"
        subtitle={
          rows.length === 0
            ? 'No account connected yet.'
            : `${rows.length} account${rows.length === 1 ? '' : 's'} · ${attention} need${attention === 1 ? 's' : ''} attention · this month, in each account's time zone and currency`
        }
        actions={
          <a className="button" href={href('/accounts')}>
            Manage accounts
          </a>
        }
      />
      {rows.length === 0 ? (
        <Empty title="Connect an ad account to see it here.">
          <a href={href('/accounts')}>Connect an account</a>
        </Empty>
      ) : (
        <div className="table-wrap">
          <table className="data-table static portfolio-table" aria-label="Portfolio">
            <thead>
              <tr>
                <th scope="col">Account</th>
                <th scope="col">Needs attention</th>
                <th scope="col">Spend this month</th>
                <th scope="col">Results</th>
                <th scope="col">Goal</th>
                <th scope="col">Open issues</th>
                <th scope="col" className="num">
                  Money at risk
                </th>
                <th scope="col">Sync</th>
              </tr>
            </thead>
            <tbody ref={body}>
              {rows.map((r, i) => (
                <tr
                  key={r.accountId}
                  className={`clickable${r.blocked ? ' row-blocked' : ''}`}
                  tabIndex={0}
                  aria-label={`${r.name}: ${r.attention.reasons.join(', ') || 'nothing urgent'}`}
                  onClick={() => open(r)}
                  onKeyDown={(e) => onKey(e, i, r)}
                >
                  <td>
                    <a
                      href={href(`/accounts/${r.accountId}`)}
                      onClick={(e) => e.stopPropagation()}
                      tabIndex={-1}
                    >
                      <strong>{r.name}</strong>
                    </a>
                    <div className="small muted">
                      {r.businessName || r.platformAccountId} · {r.currency}
                    </div>
                  </td>
                  <td>
                    {r.attention.reasons.length === 0 ? (
                      <span className="muted">Nothing urgent</span>
                    ) : (
                      <span className={r.blocked ? 'text-bad' : undefined}>
                        {r.attention.reasons.join(' · ')}
                      </span>
                    )}
                  </td>
                  <td>
                    <SpendCell row={r} />
                  </td>
                  <td>
                    <ResultsCell results={r.results} currency={r.currency} />
                  </td>
                  <td>
                    <GoalCell row={r} />
                  </td>
                  <td>
                    <IssuesCell row={r} />
                  </td>
                  <td className="num">{r.moneyAtRisk > 0 ? money(r.moneyAtRisk, r.currency, 0) : '–'}</td>
                  <td>
                    <div className="small">{relative(r.lastSyncedAt)}</div>
                    {r.syncError ? <div className="small text-bad">Sync failed</div> : null}
                    {r.tokenWarning ? (
                      <div className="small text-bad" title={r.tokenWarning}>
                        Token expires {r.tokenExpiresAt?.slice(0, 10)}
                      </div>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
