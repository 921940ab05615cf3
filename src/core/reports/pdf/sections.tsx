// The cover, the running header and footer, the KPI cards and the Andromeda box.
import { Image, Text, View } from '@react-pdf/renderer';
import type { ReportContent } from '../../../shared/api/reports';
import { reportFormatter } from '../format';
import { translator } from '../../../shared/report-i18n';
import { INK, MUTED, PAGE_MARGIN, RISK_COLOURS, RULE, tint } from './theme';

function Brand(props: { content: ReportContent; size: 'large' | 'small' }): React.JSX.Element {
  const { branding } = props.content;
  if (branding.logo) {
    const height = props.size === 'large' ? 48 : 16;
    return (
      <Image
        src={branding.logo}
        style={{ height, maxWidth: props.size === 'large' ? 200 : 90, objectFit: 'contain' }}
      />
    );
  }
  return (
    <Text
      style={{
        fontSize: props.size === 'large' ? 22 : 9,
        fontWeight: 'bold',
        color: branding.primaryColor,
      }}
    >
      {branding.companyName}
    </Text>
  );
}

export function Cover(props: { content: ReportContent }): React.JSX.Element {
  const { content } = props;
  const { branding, summary, account } = content;
  const accent = branding.primaryColor;
  const risk = RISK_COLOURS[summary.overallRiskLevel];
  const f = reportFormatter(content.locale);
  const t = translator(content.locale);
  // Results are shown per result type: one type gets its count and cost per result, several get
  // a count each (never one sum).
  const single = content.results.length === 1 ? content.results[0] : undefined;
  const stats: Array<[string, string, string]> = [
    [t('totalSpend'), f.money(summary.totalSpend, account.currency), INK],
    ...(single
      ? ([
          [single.resultName ?? t('conversions'), f.int(single.results), INK],
          [t('costPerResult'), f.money(single.costPerResult, account.currency), INK],
        ] as Array<[string, string, string]>)
      : content.results
          .slice(0, 2)
          .map((r): [string, string, string] => [r.resultName ?? t('conversions'), f.int(r.results), INK])),
    [t('overallRisk'), summary.overallRiskLevel, risk],
  ];
  return (
    <View style={{ flexGrow: 1 }}>
      <View
        style={{
          height: 10,
          backgroundColor: accent,
          marginHorizontal: -PAGE_MARGIN,
          marginTop: -PAGE_MARGIN,
        }}
      />
      <View style={{ marginTop: 36 }}>
        <Brand content={content} size="large" />
      </View>
      <View style={{ marginTop: 150 }}>
        <Text style={{ fontSize: 10, color: accent, fontWeight: 'bold', letterSpacing: 1.5 }}>
          {t('performanceReport')}
        </Text>
        <Text style={{ fontSize: 28, fontWeight: 'bold', color: INK, marginTop: 8, lineHeight: 1.2 }}>
          {content.title}
        </Text>
        <Text style={{ fontSize: 15, color: INK, marginTop: 18 }}>{account.name}</Text>
        <Text style={{ fontSize: 10, color: MUTED, marginTop: 3 }}>
          {t('adAccountLine', {
            id: account.platformAccountId,
            currency: account.currency,
            timezone: account.timezone,
          })}
        </Text>
        <Text style={{ fontSize: 12, color: INK, marginTop: 14 }}>{f.dateRange(content.dateRange)}</Text>
      </View>
      <View
        style={{
          flexDirection: 'row',
          marginTop: 40,
          borderTopWidth: 1,
          borderTopColor: RULE,
          paddingTop: 14,
        }}
      >
        {stats.map(([label, value, colour]) => (
          <View key={label} style={{ flexGrow: 1, flexBasis: 0 }}>
            <Text style={{ fontSize: 8, color: MUTED }}>{label}</Text>
            <Text style={{ fontSize: 15, fontWeight: 'bold', color: colour, marginTop: 3 }}>{value}</Text>
          </View>
        ))}
      </View>
      <View style={{ position: 'absolute', bottom: 0, left: 0, right: 0 }}>
        <Text style={{ fontSize: 9, color: INK }}>{t('preparedBy', { company: branding.companyName })}</Text>
        <Text style={{ fontSize: 8, color: MUTED, marginTop: 2 }}>
          {t('generatedAt', { timestamp: f.timestamp(content.generatedAt) })}
        </Text>
        <Text style={{ fontSize: 8, color: MUTED, marginTop: 2 }}>{branding.footerText}</Text>
      </View>
    </View>
  );
}

/** The running header and footer of every page after the cover (both `fixed`). */
export function PageChrome(props: { content: ReportContent }): React.JSX.Element {
  const { content } = props;
  const f = reportFormatter(content.locale);
  const t = translator(content.locale);
  return (
    <>
      <View
        fixed
        style={{
          position: 'absolute',
          top: 18,
          left: PAGE_MARGIN,
          right: PAGE_MARGIN,
          flexDirection: 'row',
          justifyContent: 'space-between',
          alignItems: 'center',
          borderBottomWidth: 0.8,
          borderBottomColor: content.branding.primaryColor,
          paddingBottom: 4,
        }}
      >
        <Brand content={content} size="small" />
        <Text style={{ fontSize: 8, color: MUTED, maxWidth: 330, textAlign: 'right' }}>
          {content.title} · {content.account.name} · {f.dateRange(content.dateRange)}
        </Text>
      </View>
      <View
        fixed
        style={{
          position: 'absolute',
          bottom: 18,
          left: PAGE_MARGIN,
          right: PAGE_MARGIN,
          flexDirection: 'row',
          justifyContent: 'space-between',
          borderTopWidth: 0.5,
          borderTopColor: RULE,
          paddingTop: 4,
        }}
      >
        <Text style={{ fontSize: 7.5, color: MUTED, maxWidth: 400 }}>{content.branding.footerText}</Text>
        <Text
          style={{ fontSize: 7.5, color: MUTED }}
          render={({ pageNumber, totalPages }) => t('pageOf', { page: pageNumber, pages: totalPages })}
        />
      </View>
    </>
  );
}

export function SectionTitle(props: {
  children: string;
  accent: string;
  breakBefore?: boolean;
}): React.JSX.Element {
  return (
    <View break={props.breakBefore} minPresenceAhead={80} style={{ marginBottom: 8, marginTop: 4 }}>
      <Text style={{ fontSize: 13, fontWeight: 'bold', color: INK }}>{props.children}</Text>
      <View style={{ width: 28, height: 2, backgroundColor: props.accent, marginTop: 3 }} />
    </View>
  );
}

/** Several result types: one line each (results, spend, cost per result), and why they are apart. */
export function ResultsByType(props: { content: ReportContent }): React.JSX.Element {
  const { results, account, locale } = props.content;
  const f = reportFormatter(locale);
  const t = translator(locale);
  const row = (cells: string[], bold = false) => (
    <View
      style={{ flexDirection: 'row', paddingVertical: 2, borderBottomWidth: 0.5, borderBottomColor: RULE }}
    >
      {cells.map((text, i) => (
        <Text
          key={i}
          style={{
            flexGrow: 1,
            flexBasis: 0,
            fontSize: 8,
            fontWeight: bold ? 'bold' : 'normal',
            color: INK,
            textAlign: i === 0 ? 'left' : 'right',
          }}
        >
          {text}
        </Text>
      ))}
    </View>
  );
  return (
    <View wrap={false} style={{ marginBottom: 8 }}>
      <Text style={{ fontSize: 9, fontWeight: 'bold', color: INK, marginBottom: 2 }}>
        {t('resultsByType')}
      </Text>
      {row([t('result'), t('campaigns'), t('results'), t('spend'), t('costPerResult')], true)}
      {results.map((r) =>
        row([
          r.resultName ?? t('conversions'),
          f.int(r.campaigns),
          f.int(r.results),
          f.money(r.spend, account.currency),
          f.money(r.costPerResult, account.currency),
        ]),
      )}
      <Text style={{ fontSize: 7.5, color: MUTED, marginTop: 2 }}>{t('resultsNote')}</Text>
    </View>
  );
}

export function AndromedaBox(props: { content: ReportContent }): React.JSX.Element {
  const { andromedaContext: a, branding, locale } = props.content;
  const t = translator(locale);
  return (
    <View
      wrap={false}
      style={{
        backgroundColor: tint(branding.primaryColor, 0.92),
        borderLeftWidth: 3,
        borderLeftColor: branding.primaryColor,
        padding: 10,
        marginTop: 4,
      }}
    >
      <Text style={{ fontSize: 10, fontWeight: 'bold', color: INK }}>{t('andromedaContext')}</Text>
      <Text style={{ fontSize: 9, color: INK, marginTop: 4 }}>
        {t('andromedaLine', { appetite: a.riskAppetite, focus: a.focusMetric })}
      </Text>
      <Text style={{ fontSize: 9, color: INK, marginTop: 3, lineHeight: 1.4 }}>{a.description}</Text>
    </View>
  );
}
