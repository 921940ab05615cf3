// The client-ready parts of the PDF: the analyst's commentary, KPI tiles with period-over-period
// deltas (per result type), and goals against actuals.
import { Text, View } from '@react-pdf/renderer';
import type { Kpi, ReportContent } from '../../../shared/api/reports';
import { parseCommentary } from '../../../shared/api/commentary';
import type { ReportFormatter } from '../format';
import type { Translate } from '../../../shared/report-i18n';
import { Table, type Column } from './table';
import { BAD, GOOD, INK, isDark, MUTED, RISK_COLOURS, RULE, tint } from './theme';

const TONE_COLOUR = { good: GOOD, bad: BAD, neutral: MUTED } as const;

export function Commentary(props: { content: ReportContent; accent: string }): React.JSX.Element {
  const blocks = parseCommentary(props.content.commentary);
  return (
    <View
      style={{
        borderLeftWidth: 3,
        borderLeftColor: props.accent,
        backgroundColor: tint(props.accent, 0.94),
        paddingVertical: 8,
        paddingHorizontal: 10,
        marginBottom: 12,
      }}
    >
      {blocks.map((block, i) => (
        <View key={i} wrap={false} style={{ flexDirection: 'row', marginTop: i === 0 ? 0 : 4 }}>
          {block.kind === 'bullet' ? <Text style={{ width: 10, fontSize: 9.5 }}>•</Text> : null}
          <Text style={{ flex: 1, fontSize: 9.5, lineHeight: 1.45, color: INK }}>
            {block.runs.map((run, j) => (
              <Text
                key={j}
                style={{
                  ...(run.bold ? { fontWeight: 'bold' } : {}),
                  ...(run.italic ? { fontStyle: 'italic' } : {}),
                }}
              >
                {run.text}
              </Text>
            ))}
          </Text>
        </View>
      ))}
    </View>
  );
}

function kpiLabel(kpi: Kpi, t: Translate): string {
  switch (kpi.metric) {
    case 'spend':
      return t('totalSpend');
    case 'results':
      return kpi.resultName ?? t('results');
    case 'costPerResult':
      return kpi.resultName ? `${t('costPerResult')} · ${kpi.resultName}` : t('costPerResult');
    case 'roas':
      return t('averageRoas');
  }
}

function kpiValue(kpi: Kpi, value: number | null, f: ReportFormatter, currency: string): string {
  if (kpi.metric === 'results') return value === null ? '–' : f.int(value);
  if (kpi.metric === 'roas') return f.roas(value);
  return f.money(value, currency);
}

export function KpiTiles(props: {
  content: ReportContent;
  f: ReportFormatter;
  t: Translate;
}): React.JSX.Element {
  const { content, f, t } = props;
  const { account, branding, summary } = content;
  const risk = RISK_COLOURS[summary.overallRiskLevel];
  const tiles: React.JSX.Element[] = content.kpis.map((kpi) => (
    <View
      key={`${kpi.metric}:${kpi.resultName ?? ''}`}
      style={{
        width: '23.5%',
        marginRight: '2%',
        marginBottom: 8,
        borderWidth: 0.8,
        borderColor: RULE,
        borderTopWidth: 3,
        borderTopColor: branding.primaryColor,
        borderRadius: 3,
        padding: 7,
      }}
    >
      <Text style={{ fontSize: 7.5, color: MUTED }}>{kpiLabel(kpi, t)}</Text>
      <Text style={{ fontSize: 13, fontWeight: 'bold', color: INK, marginTop: 3 }}>
        {kpiValue(kpi, kpi.value, f, account.currency)}
      </Text>
      <Text style={{ fontSize: 7.5, color: TONE_COLOUR[kpi.tone], marginTop: 3 }}>
        {kpi.change === null ? t('noPreviousData') : t('vsPrevious', { change: f.change(kpi.change) })}
      </Text>
      {kpi.previous === null ? null : (
        <Text style={{ fontSize: 7, color: MUTED, marginTop: 1 }}>
          {t('previousValue', { value: kpiValue(kpi, kpi.previous, f, account.currency) })}
        </Text>
      )}
    </View>
  ));
  tiles.push(
    <View
      key="risk"
      style={{ width: '23.5%', marginBottom: 8, borderRadius: 3, padding: 7, backgroundColor: risk }}
    >
      <Text style={{ fontSize: 7.5, color: isDark(risk) ? '#FFFFFF' : INK }}>{t('overallRisk')}</Text>
      <Text style={{ fontSize: 13, fontWeight: 'bold', color: isDark(risk) ? '#FFFFFF' : INK, marginTop: 3 }}>
        {summary.overallRiskLevel}
      </Text>
      <Text style={{ fontSize: 7.5, color: isDark(risk) ? tint(risk, 0.75) : MUTED, marginTop: 3 }}>
        {t('ofLatestDiagnostics')}
      </Text>
    </View>,
  );
  return (
    <View wrap={false} style={{ flexDirection: 'row', flexWrap: 'wrap', marginBottom: 4 }}>
      {tiles}
    </View>
  );
}

type GoalRow = ReportContent['goals'][number];

export function GoalsTable(props: {
  content: ReportContent;
  f: ReportFormatter;
  t: Translate;
  headerTint: string;
}): React.JSX.Element {
  const { content, f, t } = props;
  const currency = content.account.currency;
  if (content.goals.length === 0) {
    return <Text style={{ fontSize: 8.5, color: MUTED, marginBottom: 12 }}>{t('noGoals')}</Text>;
  }
  const value = (g: GoalRow, v: number | null) => (g.kind === 'CPA' ? f.money(v, currency) : f.roas(v));
  const columns: Array<Column<GoalRow>> = [
    {
      header: t('campaign'),
      flex: 2.6,
      cell: (g) => g.campaignName ?? t('wholeAccount'),
    },
    {
      header: t('goal'),
      flex: 1.8,
      cell: (g) =>
        `${t(g.kind === 'CPA' ? 'goalCpa' : 'goalRoas', { target: value(g, g.target) })}${
          g.source === 'account' && g.campaignId ? ` ${t('goalFromAccount')}` : ''
        }`,
    },
    { header: t('actual'), flex: 1, align: 'right', cell: (g) => value(g, g.actual) },
    {
      header: t('status'),
      flex: 0.9,
      align: 'center',
      cell: (g) => (g.met === null ? t('goalNoData') : g.met ? t('goalMet') : t('goalMissed')),
      style: (g) => (g.met === null ? { color: MUTED } : { color: g.met ? GOOD : BAD, fontWeight: 'bold' }),
    },
  ];
  return (
    <Table
      columns={columns}
      rows={content.goals}
      accent={content.branding.primaryColor}
      headerTint={props.headerTint}
      keyOf={(g) => g.campaignId ?? 'account'}
    />
  );
}
