// The PDF report: a cover, then summary (KPI cards and charts), campaigns, daily table, diagnostics and
// the Andromeda context, with a running header and numbered footer.
import { Document, Page, Text, View } from '@react-pdf/renderer';
import type { ReportCampaign, ReportContent } from '../../../shared/api/reports';
import type { RiskLevel } from '../../../shared/api/diagnostics';
import { reportFormatter, type ReportFormatter } from '../format';
import { translator, type Translate } from '../../../shared/report-i18n';
import { en } from '../../../shared/report-i18n/en';
import { ja } from '../../../shared/report-i18n/ja';
import { BarChart, LineChart } from './charts';
import { DiagnosticsSection } from './diagnostics';
import { fontFamiliesFor } from './fonts';
import { AndromedaBox, Cover, PageChrome, ResultsByType, SectionTitle } from './sections';
import { Commentary, GoalsTable, KpiTiles } from './client';
import { planPages, type PdfBlock } from '../layout';
import { BandedTable, Table, type Column } from './table';
import { CONTENT_WIDTH, INK, MUTED, PAGE_MARGIN, RISK_COLOURS, tint } from './theme';

type Day = ReportContent['daily'][number];

const NUMBER_TAGS = { en: 'en-US', ja: 'ja-JP' } as const;

function compactMoney(locale: ReportContent['locale'], currency: string): (value: number) => string {
  const format = new Intl.NumberFormat(NUMBER_TAGS[locale], {
    style: 'currency',
    currency,
    notation: 'compact',
    minimumFractionDigits: 0,
    maximumFractionDigits: 1,
  });
  return (value) => format.format(value);
}

/** Every phrase of a locale's catalogue, so the font stack covers the fixed text too. */
const CATALOGUE_TEXT = { en: Object.values(en).join(' '), ja: Object.values(ja).join(' ') } as const;

function campaignColumns(f: ReportFormatter, t: Translate, currency: string): Array<Column<ReportCampaign>> {
  return [
    { header: t('campaign'), flex: 2.6, cell: (c) => c.name },
    { header: t('result'), flex: 1.3, cell: (c) => c.resultName ?? t('conversions') },
    { header: t('spend'), flex: 1.2, align: 'right', cell: (c) => f.money(c.spend, currency) },
    { header: t('results'), flex: 0.8, align: 'right', cell: (c) => f.int(c.conversions) },
    { header: t('costPerResultShort'), flex: 1, align: 'right', cell: (c) => f.money(c.cpa, currency) },
    { header: t('roas'), flex: 0.8, align: 'right', cell: (c) => f.roas(c.roas) },
    { header: t('ctr'), flex: 0.8, align: 'right', cell: (c) => f.percent(c.ctr) },
    { header: t('cpm'), flex: 0.9, align: 'right', cell: (c) => f.money(c.cpm, currency) },
    {
      header: t('risk'),
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

function dailyColumns(
  f: ReportFormatter,
  t: Translate,
  currency: string,
  mixed: boolean,
): Array<Column<Day>> {
  const columns: Array<Column<Day>> = [
    { header: t('date'), flex: 1.4, cell: (d) => f.date(d.date) },
    { header: t('spend'), flex: 1, align: 'right', cell: (d) => f.money(d.spend, currency) },
    {
      header: mixed ? t('results') : t('conversions'),
      flex: 1,
      align: 'right',
      cell: (d) => f.int(d.conversions),
    },
    { header: t('cpa'), flex: 1, align: 'right', cell: (d) => f.money(d.cpa, currency) },
  ];
  return mixed ? columns.filter((c) => c.header !== t('cpa')) : columns;
}

export function ReportDocument(props: { content: ReportContent }): React.JSX.Element {
  const { content } = props;
  const { account, branding } = content;
  const f = reportFormatter(content.locale);
  const t = translator(content.locale);
  /** Several result types: no cost per result across them (daily CPA chart and column left out). */
  const mixed = content.results.length > 1;
  const compactNumber = new Intl.NumberFormat(NUMBER_TAGS[content.locale], {
    notation: 'compact',
    maximumFractionDigits: 1,
  });
  const accent = branding.primaryColor;
  const headerTint = tint(accent, 0.9);
  const dates = content.daily.map((d) => d.date);
  const half = (CONTENT_WIDTH - 14) / 2;
  const pageStyle = {
    // Only the fallbacks this report's text needs (names, title, diagnostics, branding).
    fontFamily: fontFamiliesFor(JSON.stringify(content) + CATALOGUE_TEXT[content.locale]),
    fontSize: 9.5,
    color: INK,
    paddingHorizontal: PAGE_MARGIN,
    paddingTop: 52,
    paddingBottom: 46,
  };
  function Block(props: { block: PdfBlock }): React.JSX.Element {
    switch (props.block) {
      case 'commentary':
        return (
          <>
            <SectionTitle accent={accent}>{t('commentary')}</SectionTitle>
            <Commentary content={content} accent={accent} />
          </>
        );
      case 'kpis':
        return (
          <>
            <SectionTitle accent={accent}>{t('keyFigures')}</SectionTitle>
            <KpiTiles content={content} f={f} t={t} />
          </>
        );
      case 'summary':
        return (
          <>
            <SectionTitle accent={accent}>{t('summary')}</SectionTitle>
            {mixed ? <ResultsByType content={content} /> : null}
            <Text style={{ fontSize: 7.5, color: MUTED, marginBottom: 12 }}>
              {t('summaryNote', {
                range: f.dateRange(content.previousDateRange),
                currency: account.currency,
                impressions: f.int(content.totals.impressions),
                clicks: f.int(content.totals.clicks),
                ctr: f.percent(content.totals.ctr),
                cpm: f.money(content.totals.cpm, account.currency),
              })}
            </Text>
          </>
        );
      case 'goals':
        return (
          <>
            <SectionTitle accent={accent}>{t('goalsVsActuals')}</SectionTitle>
            <GoalsTable content={content} f={f} t={t} headerTint={headerTint} />
          </>
        );
      case 'trend':
        return (
          <View wrap={false}>
            <LineChart
              title={t('dailySpend')}
              dates={dates}
              values={content.daily.map((d) => d.spend)}
              colour={accent}
              width={CONTENT_WIDTH}
              height={120}
              formatTick={compactMoney(content.locale, account.currency)}
              formatDate={f.shortDate}
              area
            />
            <View style={{ flexDirection: 'row', justifyContent: 'space-between' }}>
              <BarChart
                title={mixed ? t('dailyResultsAllTypes') : t('dailyConversions')}
                dates={dates}
                values={content.daily.map((d) => d.conversions)}
                colour={tint(accent, 0.25)}
                width={half}
                height={100}
                formatTick={(v) => compactNumber.format(v)}
                formatDate={f.shortDate}
              />
              {/* A cost per result across result types would divide spend by unlike things. */}
              {mixed ? null : (
                <LineChart
                  title={t('dailyCpa')}
                  dates={dates}
                  values={content.daily.map((d) => d.cpa)}
                  colour={INK}
                  width={half}
                  height={100}
                  formatTick={compactMoney(content.locale, account.currency)}
                  formatDate={f.shortDate}
                />
              )}
            </View>
          </View>
        );
      case 'campaigns':
        return (
          <>
            <SectionTitle accent={accent}>{t('campaigns')}</SectionTitle>
            <Table
              columns={campaignColumns(f, t, account.currency)}
              rows={content.campaigns}
              accent={accent}
              headerTint={headerTint}
              keyOf={(c) => c.id}
            />
          </>
        );
      case 'diagnostics':
        return (
          <>
            <SectionTitle accent={accent}>{t('diagnostics')}</SectionTitle>
            <DiagnosticsSection campaigns={content.campaigns} accent={accent} f={f} t={t} />
            <AndromedaBox content={content} />
          </>
        );
      case 'daily':
      case 'daily2':
        return (
          <>
            <SectionTitle accent={accent}>{t('dailyPerformance')}</SectionTitle>
            <Text style={{ fontSize: 7.5, color: MUTED, marginBottom: 6 }}>
              {t('dailyNote', { currency: account.currency })}
            </Text>
            <BandedTable
              columns={dailyColumns(f, t, account.currency, mixed)}
              rows={content.daily}
              bandSize={7}
              accent={accent}
              headerTint={headerTint}
              twoUp={props.block === 'daily2'}
            />
          </>
        );
    }
  }
  return (
    <Document
      title={content.title}
      author={branding.companyName}
      subject={`${account.name}, ${f.dateRange(content.dateRange)}`}
      creator={branding.companyName}
      producer={branding.companyName}
      creationDate={new Date(content.generatedAt)}
    >
      <Page size="A4" style={{ ...pageStyle, paddingTop: PAGE_MARGIN, paddingBottom: PAGE_MARGIN }}>
        <Cover content={content} />
      </Page>
      {planPages(content).map((blocks, page) => (
        // Separate pages only where the layout rules allow (layout.ts): react-pdf re-lays out what
        // follows at every break, so fewer, flowing pages cost more; near-empty pages cost the reader.
        <Page key={page} size="A4" style={pageStyle}>
          <PageChrome content={content} />
          {blocks.map((block) => (
            <Block key={block} block={block} />
          ))}
        </Page>
      ))}
    </Document>
  );
}
