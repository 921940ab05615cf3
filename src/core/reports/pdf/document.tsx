// The PDF report: a cover, then summary (KPI cards and charts), campaigns, daily table, diagnostics and
// the Andromeda context, with a running header and numbered footer.
import { Document, Page, Text, View } from '@react-pdf/renderer';
import type { ReportCampaign, ReportContent } from '../../../shared/api/reports';
import type { RiskLevel } from '../../../shared/api/diagnostics';
import { formatDate, formatDateRange, formatInt, formatMoney, formatPercent, formatRoas } from '../format';
import { BarChart, LineChart } from './charts';
import { DiagnosticsSection } from './diagnostics';
import { fontFamiliesFor } from './fonts';
import { AndromedaBox, Cover, KpiCards, PageChrome, SectionTitle } from './sections';
import { BandedTable, Table, type Column } from './table';
import { CONTENT_WIDTH, INK, MUTED, PAGE_MARGIN, RISK_COLOURS, tint } from './theme';

type Day = ReportContent['daily'][number];

function compactMoney(currency: string): (value: number) => string {
  const format = new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency,
    notation: 'compact',
    minimumFractionDigits: 0,
    maximumFractionDigits: 1,
  });
  return (value) => format.format(value);
}

const compactNumber = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

function campaignColumns(currency: string): Array<Column<ReportCampaign>> {
  return [
    { header: 'Campaign', flex: 3.2, cell: (c) => c.name },
    { header: 'Spend', flex: 1.3, align: 'right', cell: (c) => formatMoney(c.spend, currency) },
    { header: 'Conv.', flex: 0.8, align: 'right', cell: (c) => formatInt(c.conversions) },
    { header: 'CPA', flex: 1, align: 'right', cell: (c) => formatMoney(c.cpa, currency) },
    { header: 'ROAS', flex: 0.8, align: 'right', cell: (c) => formatRoas(c.roas) },
    { header: 'CTR', flex: 0.8, align: 'right', cell: (c) => formatPercent(c.ctr) },
    { header: 'CPM', flex: 0.9, align: 'right', cell: (c) => formatMoney(c.cpm, currency) },
    {
      header: 'Risk',
      flex: 0.9,
      align: 'center',
      cell: (c) => c.riskLevel ?? '–',
      style: (c) =>
        c.riskLevel
          ? { color: RISK_COLOURS[c.riskLevel as RiskLevel], fontWeight: 'bold' }
          : { color: MUTED },
    },
  ];
}

function dailyColumns(currency: string): Array<Column<Day>> {
  return [
    { header: 'Date', flex: 1.4, cell: (d) => formatDate(d.date) },
    { header: 'Spend', flex: 1, align: 'right', cell: (d) => formatMoney(d.spend, currency) },
    { header: 'Conversions', flex: 1, align: 'right', cell: (d) => formatInt(d.conversions) },
    { header: 'CPA', flex: 1, align: 'right', cell: (d) => formatMoney(d.cpa, currency) },
  ];
}

export function ReportDocument(props: { content: ReportContent }): React.JSX.Element {
  const { content } = props;
  const { account, branding } = content;
  const accent = branding.primaryColor;
  const headerTint = tint(accent, 0.9);
  const dates = content.daily.map((d) => d.date);
  const half = (CONTENT_WIDTH - 14) / 2;
  const pageStyle = {
    // Only the fallbacks this report's text needs (names, title, diagnostics, branding).
    fontFamily: fontFamiliesFor(JSON.stringify(content)),
    fontSize: 9.5,
    color: INK,
    paddingHorizontal: PAGE_MARGIN,
    paddingTop: 52,
    paddingBottom: 46,
  };
  return (
    <Document
      title={content.title}
      author={branding.companyName}
      subject={`${account.name}, ${formatDateRange(content.dateRange)}`}
      creator={branding.companyName}
      producer={branding.companyName}
      creationDate={new Date(content.generatedAt)}
    >
      <Page size="A4" style={{ ...pageStyle, paddingTop: PAGE_MARGIN, paddingBottom: PAGE_MARGIN }}>
        <Cover content={content} />
      </Page>
      <Page size="A4" style={pageStyle}>
        <PageChrome content={content} />
        <SectionTitle accent={accent}>Summary</SectionTitle>
        <KpiCards content={content} />
        <Text style={{ fontSize: 7.5, color: MUTED, marginBottom: 12 }}>
          Changes compare with the previous period of equal length,{' '}
          {formatDateRange(content.previousDateRange)}. Amounts in {account.currency}. Impressions{' '}
          {formatInt(content.totals.impressions)}, clicks {formatInt(content.totals.clicks)}, CTR{' '}
          {formatPercent(content.totals.ctr)}, CPM {formatMoney(content.totals.cpm, account.currency)}.
        </Text>
        <LineChart
          title="Daily spend"
          dates={dates}
          values={content.daily.map((d) => d.spend)}
          colour={accent}
          width={CONTENT_WIDTH}
          height={120}
          formatTick={compactMoney(account.currency)}
          area
        />
        <View style={{ flexDirection: 'row', justifyContent: 'space-between' }}>
          <BarChart
            title="Daily conversions"
            dates={dates}
            values={content.daily.map((d) => d.conversions)}
            colour={tint(accent, 0.25)}
            width={half}
            height={100}
            formatTick={(v) => compactNumber.format(v)}
          />
          <LineChart
            title="Daily CPA"
            dates={dates}
            values={content.daily.map((d) => d.cpa)}
            colour={INK}
            width={half}
            height={100}
            formatTick={compactMoney(account.currency)}
          />
        </View>
        <SectionTitle accent={accent}>Campaigns</SectionTitle>
        <Table
          columns={campaignColumns(account.currency)}
          rows={content.campaigns}
          accent={accent}
          headerTint={headerTint}
          keyOf={(c) => c.id}
        />
      </Page>
      {/* Separate pages, not page breaks: react-pdf re-lays out what follows at every break, so one long
          page costs more than the same content split into sections. */}
      <Page size="A4" style={pageStyle}>
        <PageChrome content={content} />
        <SectionTitle accent={accent}>Diagnostics</SectionTitle>
        <DiagnosticsSection campaigns={content.campaigns} accent={accent} />
        <AndromedaBox content={content} />
      </Page>
      <Page size="A4" style={pageStyle}>
        <PageChrome content={content} />
        <SectionTitle accent={accent}>Daily performance</SectionTitle>
        <Text style={{ fontSize: 7.5, color: MUTED, marginBottom: 6 }}>
          One band per week of the range; amounts in {account.currency}.
        </Text>
        <BandedTable
          columns={dailyColumns(account.currency)}
          rows={content.daily}
          bandSize={7}
          accent={accent}
          headerTint={headerTint}
        />
      </Page>
    </Document>
  );
}
