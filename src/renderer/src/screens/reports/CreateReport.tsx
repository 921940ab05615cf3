// The "New report" form: account, period or a weekly/monthly repeat, up to 20 campaigns, format,
// language, sections, the analyst's commentary, the client's branding and delivery (a folder, e-mail),
// with a live preview of the report's content beside it. "Once" generates now; weekly/monthly
// creates a schedule whose runs wait as pending.
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import type { ReportSection } from '../../../../shared/api/reports';
import type { ReportScheduleView } from '../../../../shared/ipc';
import { useCall, useCallMutation } from '../../api/hooks';
import { ClientBranding } from './ClientBranding';
import { ReportPreview } from './ReportPreview';
import { Loading } from '../../components/ui';
import { money } from '../../format';
import { FORMAT_LABEL } from './labels';

const MAX_CAMPAIGNS = 20;
type Repeat = 'once' | 'weekly' | 'monthly';
const REPEAT_LABEL = { once: 'Once', weekly: 'Weekly', monthly: 'Monthly' } as const;
const REPEAT_HINT = {
  once: null,
  weekly: 'Every Monday at 06:00 UTC, covering the previous Monday to Sunday.',
  monthly: 'On the 1st of every month at 06:00 UTC, covering the previous calendar month.',
} as const;

const SECTION_LABEL: Record<ReportSection, string> = {
  commentary: 'Commentary',
  kpis: 'Key figures',
  summary: 'Summary',
  goals: 'Goals',
  trend: 'Trend',
  campaigns: 'Campaigns table',
  diagnostics: 'Diagnostics',
};

/** The value once it has stopped changing for `ms` (the preview follows typing without a call per key). */
function useSettled<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const isoDaysAgo = (days: number): string =>
  new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

export function CreateReport(props: {
  onClose: () => void;
  onScheduled: (schedule: ReportScheduleView) => void;
}): React.JSX.Element {
  const accounts = useCall('accounts.list', {});
  const [accountId, setAccountId] = useState('');
  const chosen = accountId || accounts.data?.[0]?.id || '';
  const campaigns = useCall(
    'campaigns.list',
    { accountId: chosen, range: { days: 30 } },
    { enabled: Boolean(chosen) },
  );
  const [title, setTitle] = useState('Weekly performance');
  const [dateFrom, setDateFrom] = useState(isoDaysAgo(7));
  const [dateTo, setDateTo] = useState(isoDaysAgo(1));
  const [format, setFormat] = useState<'pdf' | 'markdown' | 'json'>('pdf');
  const [repeat, setRepeat] = useState<Repeat>('once');
  const [picked, setPicked] = useState<string[]>([]);
  const [filter, setFilter] = useState('');
  const [locale, setLocale] = useState<'en' | 'ja'>('en');
  const [off, setOff] = useState<ReportSection[]>([]);
  const [commentary, setCommentary] = useState('');
  const [folder, setFolder] = useState('');
  const [emails, setEmails] = useState('');
  const create = useCallMutation('reports.create', ['reports']);
  const schedule = useCallMutation('reports.schedule', ['reports']);
  const pending = create.isPending || schedule.isPending;
  const error = repeat === 'once' ? create.error : schedule.error;
  const sections = Object.fromEntries(off.map((s) => [s, false]));
  const previewArgs = useSettled({
    accountId: chosen,
    title: title.trim() || 'Report',
    dateFrom,
    dateTo,
    locale,
    sections,
    ...(commentary.trim() ? { commentary } : {}),
    ...(picked.length > 0 ? { campaignIds: picked } : {}),
  });
  const preview = useCall('reports.preview', previewArgs, {
    enabled: Boolean(previewArgs.accountId) && previewArgs.dateFrom <= previewArgs.dateTo,
    placeholderData: (previous) => previous,
  });
  const emailList = emails
    .split(/[\s,;]+/)
    .map((e) => e.trim())
    .filter(Boolean);
  const delivery =
    folder.trim() || emailList.length > 0
      ? {
          ...(folder.trim() ? { folder: folder.trim() } : {}),
          ...(emailList.length > 0 ? { emails: emailList } : {}),
        }
      : undefined;

  const options = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return (campaigns.data?.items ?? [])
      .filter((c) => !needle || c.name.toLowerCase().includes(needle))
      .sort((a, b) => b.spend - a.spend);
  }, [campaigns.data, filter]);

  const toggle = (id: string): void =>
    setPicked((current) =>
      current.includes(id)
        ? current.filter((x) => x !== id)
        : current.length >= MAX_CAMPAIGNS
          ? current
          : [...current, id],
    );

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const common = {
      accountId: chosen,
      title,
      format,
      ...(picked.length > 0 ? { campaignIds: picked } : {}),
      locale,
      sections,
      ...(commentary.trim() ? { commentary } : {}),
      ...(delivery ? { delivery } : {}),
    };
    if (repeat === 'once') {
      create.mutate({ ...common, dateFrom, dateTo }, { onSuccess: props.onClose });
    } else {
      schedule.mutate({ ...common, cadence: repeat }, { onSuccess: props.onScheduled });
    }
  };

  return (
    <section className="panel" aria-labelledby="create-report-title">
      <div className="panel-head">
        <h2 id="create-report-title">New report</h2>
        <button type="button" className="link-button" onClick={props.onClose}>
          Close
        </button>
      </div>
      <div className="report-compose">
        <form className="form report-form" onSubmit={submit}>
          <div className="form-row">
            <label>
              Title
              <input required maxLength={200} value={title} onChange={(e) => setTitle(e.target.value)} />
            </label>
            <label>
              Ad account
              <select
                value={chosen}
                onChange={(e) => {
                  setAccountId(e.target.value);
                  setPicked([]);
                }}
                required
              >
                {(accounts.data ?? []).map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
              </select>
            </label>
            {repeat === 'once' ? (
              <>
                <label>
                  From
                  <input
                    type="date"
                    required
                    value={dateFrom}
                    max={dateTo}
                    onChange={(e) => setDateFrom(e.target.value)}
                  />
                </label>
                <label>
                  To
                  <input
                    type="date"
                    required
                    value={dateTo}
                    min={dateFrom}
                    onChange={(e) => setDateTo(e.target.value)}
                  />
                </label>
              </>
            ) : null}
          </div>
          <fieldset className="repeat-picker">
            <legend>Repeat</legend>
            <div className="choice-row">
              {(['once', 'weekly', 'monthly'] as const).map((r) => (
                <label key={r} className="check">
                  <input
                    type="radio"
                    name="repeat"
                    value={r}
                    checked={repeat === r}
                    onChange={() => setRepeat(r)}
                  />
                  {REPEAT_LABEL[r]}
                </label>
              ))}
            </div>
            {REPEAT_HINT[repeat] ? <p className="hint">{REPEAT_HINT[repeat]}</p> : null}
          </fieldset>
          <fieldset className="campaign-picker">
            <legend>
              Campaigns{' '}
              <span className="muted">
                (
                {picked.length === 0
                  ? 'none picked: the top 20 by spend'
                  : `${picked.length} of ${MAX_CAMPAIGNS}`}
                )
              </span>
            </legend>
            <input
              type="search"
              aria-label="Filter campaigns"
              placeholder="Filter campaigns"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
            />
            <div className="picker-list">
              {campaigns.isPending && chosen ? (
                <Loading />
              ) : options.length === 0 ? (
                <p className="muted">No campaign.</p>
              ) : (
                options.map((c) => (
                  <label key={c.id} className="check">
                    <input
                      type="checkbox"
                      checked={picked.includes(c.id)}
                      disabled={!picked.includes(c.id) && picked.length >= MAX_CAMPAIGNS}
                      onChange={() => toggle(c.id)}
                    />
                    <span>{c.name}</span>
                    <span className="muted">{money(c.spend, c.currency, 0)}</span>
                  </label>
                ))
              )}
            </div>
            {picked.length >= MAX_CAMPAIGNS ? (
              <p className="hint">A report covers at most {MAX_CAMPAIGNS} campaigns.</p>
            ) : null}
          </fieldset>
          <fieldset className="format-picker">
            <legend>Format</legend>
            {(['pdf', 'markdown', 'json'] as const).map((f) => (
              <label key={f} className="check">
                <input
                  type="radio"
                  name="format"
                  value={f}
                  checked={format === f}
                  onChange={() => setFormat(f)}
                />
                {FORMAT_LABEL[f]}
              </label>
            ))}
          </fieldset>
          <fieldset className="report-options">
            <legend>Contents</legend>
            <label>
              Language
              <select value={locale} onChange={(e) => setLocale(e.target.value as 'en' | 'ja')}>
                <option value="en">English</option>
                <option value="ja">日本語 (Japanese)</option>
              </select>
            </label>
            <div className="choice-row" role="group" aria-label="Sections">
              {(Object.keys(SECTION_LABEL) as ReportSection[]).map((section) => (
                <label key={section} className="check">
                  <input
                    type="checkbox"
                    checked={!off.includes(section)}
                    onChange={(e) =>
                      setOff((current) =>
                        e.target.checked ? current.filter((x) => x !== section) : [...current, section],
                      )
                    }
                  />
                  {SECTION_LABEL[section]}
                </label>
              ))}
            </div>
            <label>
              Analyst commentary
              <textarea
                rows={5}
                maxLength={4000}
                value={commentary}
                placeholder={'A paragraph for the client.\n\n- A bullet with **bold** or *italic* words'}
                onChange={(e) => setCommentary(e.target.value)}
              />
            </label>
            <p className="hint">Paragraphs, “- ” bullets, **bold** and *italic*. Stored with the report.</p>
          </fieldset>
          {chosen ? (
            <ClientBranding
              accountId={chosen}
              accountName={accounts.data?.find((a) => a.id === chosen)?.name ?? ''}
            />
          ) : null}
          <fieldset className="report-delivery">
            <legend>Delivery</legend>
            <div className="form-row">
              <label>
                Copy to folder
                <input
                  value={folder}
                  placeholder="/Users/me/Clients/Acme/Reports"
                  onChange={(e) => setFolder(e.target.value)}
                />
              </label>
              <label>
                E-mail to
                <input
                  value={emails}
                  placeholder="client@example.com, boss@example.com"
                  onChange={(e) => setEmails(e.target.value)}
                />
              </label>
            </div>
            <p className="hint">
              E-mails go through the agency’s SMTP server (the alerts’ one: <code>alerts smtp</code>); each
              delivery’s status shows in the list.
            </p>
          </fieldset>
          {error ? (
            <p className="form-error" role="alert">
              {error.message}
            </p>
          ) : null}
          <div>
            <button type="submit" className="button primary" disabled={!chosen || pending}>
              {pending
                ? 'Starting…'
                : repeat === 'once'
                  ? 'Generate report'
                  : `Schedule ${REPEAT_LABEL[repeat].toLowerCase()} report`}
            </button>
          </div>
        </form>
        <aside className="report-preview-pane" aria-label="Preview" tabIndex={0}>
          <h3 className="preview-title">Preview</h3>
          {preview.error ? (
            <p className="form-error" role="alert">
              {preview.error.message}
            </p>
          ) : preview.data ? (
            <ReportPreview content={preview.data} />
          ) : (
            <Loading />
          )}
        </aside>
      </div>
    </section>
  );
}
