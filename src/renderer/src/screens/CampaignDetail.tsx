// Campaign detail: daily spend, conversions, CPA and ROAS over a chosen range; ad sets with learning
// status, budget and targeting; ads; the analyst's target CPA; and a button to diagnose it now.
import type { AdSetView } from '../../../shared/ipc';
import { useCall, useCallMutation } from '../api/hooks';
import { DateRangePicker, rangeText, useDateRange } from '../components/DateRangePicker';
import { Empty, ErrorState, Loading, PageHeader, RiskBadge, StatusPill, Trend } from '../components/ui';
import { COLORS, TimeChart } from '../components/charts';
import { compactMoney, date, integer, money, percent, ratio, titleCase } from '../format';
import { href, navigate, useRoute } from '../router';
import { AdIssues } from './campaign/AdIssues';
import { ChangesList, MARKED_CHANGES } from './campaign/ChangesList';
import { focusProps, useFocusRow } from './campaign/focus';
import { GoalForm } from './goals/GoalForm';

function targetingText(t: AdSetView['targeting']): string {
  const geo = t.geoLocations.length > 0 ? t.geoLocations.join(', ') : 'Any country';
  const age = t.ageMin || t.ageMax ? `${t.ageMin ?? 18}–${t.ageMax ?? '65+'}` : 'Any age';
  const genders = t.genders.join(' & ');
  return `${geo} · ${age} · ${genders}`;
}

function Learning(props: { adSet: AdSetView }): React.JSX.Element {
  const { learningPhaseStatus, learningConversions } = props.adSet;
  if (!learningPhaseStatus) return <span className="muted">–</span>;
  const label =
    learningPhaseStatus === 'FAIL'
      ? 'Learning limited'
      : learningPhaseStatus === 'IN_LEARNING'
        ? 'In learning'
        : 'Exited';
  return (
    <span>
      <StatusPill status={learningPhaseStatus} label={label} />
      {learningPhaseStatus !== 'EXITED' && learningConversions !== null ? (
        <span className="muted"> {learningConversions}/50 conv.</span>
      ) : null}
    </span>
  );
}

export default function CampaignDetail(props: { campaignId: string }): React.JSX.Element {
  const [range, setRange] = useDateRange('campaign-detail', { preset: 'last_30d', compare: 'none' });
  const detail = useCall(
    'campaigns.get',
    { campaignId: props.campaignId, dateRange: range },
    { placeholderData: (prev) => prev },
  );
  const run = useCallMutation('diagnostics.run', ['diagnostics', 'campaigns']);
  const route = useRoute();
  const focus = route.query.get('focus');
  useFocusRow(focus, detail.isSuccess);
  const goal = useCall('goals.campaign', { campaignId: props.campaignId });
  const roasGoal = goal.data?.effective?.kind === 'ROAS' ? goal.data.effective.target : null;

  if (detail.isPending) return <Loading label="Loading campaign…" />;
  if (detail.isError) return <ErrorState error={detail.error} onRetry={() => void detail.refetch()} />;
  const { campaign, daily, adSets, ads, targetCpa, changes, adIssues, deliveryIssues } = detail.data;
  const before = campaign.previous;
  // Percent change against the comparison period (null: nothing compared, or nothing before).
  const change = (now: number | null, then: number | null | undefined): number | null | undefined =>
    before
      ? now === null || then === null || then === undefined || then === 0
        ? null
        : ((now - then) / Math.abs(then)) * 100
      : undefined;
  const trend = (now: number | null, then: number | null | undefined, goodWhen: 'up' | 'down' | 'neutral') =>
    before ? (
      <dd className="kpi-trend">
        <Trend change={change(now, then)} goodWhen={goodWhen} />
      </dd>
    ) : null;
  const currency = campaign.currency;
  // Edits that can move the numbers, marked on the days they were made (one mark per day and kind).
  const inRange = new Set(daily.map((d) => d.date));
  const markers = [
    ...new Map(
      changes
        .filter((c) => MARKED_CHANGES.has(c.changeType) && inRange.has(c.at.slice(0, 10)))
        .map((c) => [
          `${c.at.slice(0, 10)}-${c.changeType}`,
          { x: c.at.slice(0, 10), label: titleCase(c.changeType) },
        ]),
    ).values(),
  ];
  const fmtMoney = (v: number): string => money(v, currency, 0);

  return (
    <>
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <a href={href('/campaigns')}>Campaigns</a> <span aria-hidden="true">/</span>{' '}
        <span>{campaign.name}</span>
      </nav>
      <PageHeader
        title={campaign.name}
        subtitle={
          <>
            <StatusPill status={campaign.status} /> {campaign.accountName} · {titleCase(campaign.objective)} ·{' '}
            {campaign.bidStrategy ? titleCase(campaign.bidStrategy) : 'No bid strategy'} ·{' '}
            {campaign.dailyBudget !== null
              ? `${money(campaign.dailyBudget, currency)} / day`
              : campaign.lifetimeBudget !== null
                ? `${money(campaign.lifetimeBudget, currency)} lifetime`
                : 'Budget on ad sets'}
          </>
        }
        actions={
          <>
            <DateRangePicker value={range} onChange={setRange} resolved={detail.data.dateRange} />
            <button
              type="button"
              className="button primary"
              disabled={run.isPending || !campaign.synced}
              title={campaign.synced ? undefined : 'Wait for the first sync of this campaign'}
              onClick={() =>
                run.mutate(
                  { accountId: campaign.accountId, campaignId: campaign.id },
                  { onSuccess: (created) => navigate(`/diagnostics/${created.id}`) },
                )
              }
            >
              {run.isPending ? 'Starting…' : 'Run diagnostic'}
            </button>
          </>
        }
      />
      {run.error ? (
        <div className="banner banner-warn" role="alert">
          {run.error.message}
        </div>
      ) : null}
      <dl className="kpis">
        <div>
          <dt>Spend</dt>
          <dd>{money(campaign.spend, currency)}</dd>
          {trend(campaign.spend, before?.spend, 'neutral')}
        </div>
        <div>
          <dt>{campaign.resultName ?? 'Results'}</dt>
          <dd>{integer(campaign.conversions)}</dd>
          {trend(campaign.conversions, before?.conversions, 'up')}
        </div>
        <div>
          <dt>Cost per result</dt>
          <dd>
            {money(campaign.cpa, currency)}
            {targetCpa !== null ? (
              <span className="muted small"> target {money(targetCpa, currency)}</span>
            ) : null}
          </dd>
          {trend(campaign.cpa, before?.cpa, 'down')}
        </div>
        <div>
          <dt>ROAS</dt>
          <dd>{ratio(campaign.roas)}</dd>
          {trend(campaign.roas, before?.roas, 'up')}
        </div>
        <div>
          <dt>CTR</dt>
          <dd>{percent(campaign.ctr)}</dd>
          {trend(campaign.ctr, before?.ctr, 'up')}
        </div>
        <div>
          <dt>Latest diagnostic</dt>
          <dd>
            {campaign.latestDiagnostic ? (
              <a href={href(`/diagnostics/${campaign.latestDiagnostic.id}`)}>
                <RiskBadge level={campaign.latestDiagnostic.riskLevel} />
              </a>
            ) : (
              <span className="muted">None yet</span>
            )}
          </dd>
        </div>
      </dl>
      <GoalForm
        key={campaign.id}
        accountId={campaign.accountId}
        campaignId={campaign.id}
        currency={currency}
        actual={{ cpa: campaign.cpa, roas: campaign.roas }}
        actualLabel="in this range"
      />
      {daily.every((d) => d.spend === 0 && d.conversions === 0) ? (
        <Empty title="No delivery in this range.">Pick a longer range, or sync the account.</Empty>
      ) : (
        <div className="chart-grid">
          <TimeChart
            title="Daily spend and conversions"
            data={daily}
            markers={markers}
            series={[
              {
                key: 'spend',
                label: 'Spend',
                color: COLORS.primary,
                kind: 'bar',
                format: fmtMoney,
                tick: (v) => compactMoney(v, currency),
              },
              {
                key: 'conversions',
                label: 'Conversions',
                color: COLORS.secondary,
                axis: 'right',
                format: (v) => integer(v),
              },
            ]}
          />
          <TimeChart
            title="Cost per acquisition"
            data={daily}
            series={[
              {
                key: 'cpa',
                label: 'CPA',
                color: COLORS.warn,
                format: (v) => money(v, currency),
                tick: (v) => compactMoney(v, currency),
              },
            ]}
            reference={targetCpa !== null ? { value: targetCpa, label: 'Target CPA' } : undefined}
          />
          <TimeChart
            title="Return on ad spend"
            data={daily}
            series={[{ key: 'roas', label: 'ROAS', color: COLORS.secondary, format: (v) => ratio(v) }]}
            reference={roasGoal !== null ? { value: roasGoal, label: 'ROAS goal' } : undefined}
          />
        </div>
      )}
      <AdIssues summary={deliveryIssues} issues={adIssues} />
      <section aria-labelledby="adsets-title" className="section">
        <h2 id="adsets-title">Ad sets ({adSets.length})</h2>
        {adSets.length === 0 ? (
          <Empty title="No ad sets in this campaign." />
        ) : (
          <div className="table-wrap">
            <table className="data-table static">
              <thead>
                <tr>
                  <th scope="col">Ad set</th>
                  <th scope="col">Status</th>
                  <th scope="col">Learning</th>
                  <th scope="col" className="num">
                    Daily budget
                  </th>
                  <th scope="col">Targeting</th>
                  <th scope="col">Optimization</th>
                  <th scope="col" className="num">
                    Spend
                  </th>
                  <th scope="col" className="num">
                    Conv.
                  </th>
                </tr>
              </thead>
              <tbody>
                {adSets.map((s) => (
                  <tr key={s.id} {...focusProps(s.id, focus)}>
                    <td>{s.name}</td>
                    <td>
                      <StatusPill status={s.status} />
                    </td>
                    <td>
                      <Learning adSet={s} />
                    </td>
                    <td className="num">{money(s.dailyBudget, currency)}</td>
                    <td>{targetingText(s.targeting)}</td>
                    <td>{s.optimization ? titleCase(s.optimization) : '–'}</td>
                    <td className="num">{money(s.spend, currency)}</td>
                    <td className="num">{integer(s.conversions)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section aria-labelledby="ads-title" className="section">
        <h2 id="ads-title">Ads ({ads.length})</h2>
        {ads.length === 0 ? (
          <Empty title="No ads in this campaign." />
        ) : (
          <div className="table-wrap">
            <table className="data-table static">
              <thead>
                <tr>
                  <th scope="col">Ad</th>
                  <th scope="col">Ad set</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="num">
                    Spend
                  </th>
                  <th scope="col" className="num">
                    Impr.
                  </th>
                  <th scope="col" className="num">
                    CTR
                  </th>
                  <th scope="col" className="num">
                    Conv.
                  </th>
                </tr>
              </thead>
              <tbody>
                {ads.map((d) => (
                  <tr key={d.id} {...focusProps(d.id, focus)}>
                    <td>{d.name}</td>
                    <td className="muted">{d.adSetName}</td>
                    <td>
                      <StatusPill status={d.status} />
                    </td>
                    <td className="num">{money(d.spend, currency)}</td>
                    <td className="num">{integer(d.impressions)}</td>
                    <td className="num">{percent(d.ctr)}</td>
                    <td className="num">{integer(d.conversions)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <ChangesList changes={changes} />
      <p className="muted small">
        {rangeText(detail.data.dateRange, detail.data.comparison)} · last synced {date(campaign.lastSyncedAt)}
      </p>
    </>
  );
}
