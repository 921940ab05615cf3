// The "New report" form: account, period or a weekly/monthly repeat, up to 20 campaigns, format and
// white-label. "Once" generates now; weekly/monthly creates a schedule whose runs wait as pending.
import { useMemo, useState, type FormEvent } from 'react';
import type { ReportScheduleView, WhiteLabel } from '../../../../shared/ipc';
import { useCall, useCallMutation } from '../../api/hooks';
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

const isoDaysAgo = (days: number): string =>
  new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

export function CreateReport(props: {
  onClose: () => void;
  onScheduled: (schedule: ReportScheduleView) => void;
}): React.JSX.Element {
  const accounts = useCall('accounts.list', {});
  const settings = useCall('settings.get', {});
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
  const [useWhiteLabel, setUseWhiteLabel] = useState(false);
  const [whiteLabel, setWhiteLabel] = useState<WhiteLabel | null>(null);
  const create = useCallMutation('reports.create', ['reports']);
  const schedule = useCallMutation('reports.schedule', ['reports']);
  const pending = create.isPending || schedule.isPending;
  const error = repeat === 'once' ? create.error : schedule.error;
  const allowed = settings.data?.workspace.whiteLabelAllowed ?? false;
  const brand = whiteLabel ?? settings.data?.whiteLabelDefaults ?? { companyName: '' };

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
      ...(useWhiteLabel && allowed && brand.companyName ? { whiteLabel: brand } : {}),
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
        <fieldset className="white-label">
          <legend>White-label</legend>
          {allowed ? (
            <>
              <label className="check">
                <input
                  type="checkbox"
                  checked={useWhiteLabel}
                  onChange={(e) => setUseWhiteLabel(e.target.checked)}
                />
                Brand this report as your agency
              </label>
              {useWhiteLabel ? (
                <div className="form-row">
                  <label>
                    Company name
                    <input
                      required
                      value={brand.companyName ?? ''}
                      onChange={(e) => setWhiteLabel({ ...brand, companyName: e.target.value })}
                    />
                  </label>
                  <label>
                    Primary colour
                    <input
                      type="color"
                      value={brand.primaryColor ?? '#2f5fd0'}
                      onChange={(e) => setWhiteLabel({ ...brand, primaryColor: e.target.value })}
                    />
                  </label>
                  <label>
                    Footer text
                    <input
                      value={brand.footerText ?? ''}
                      onChange={(e) => setWhiteLabel({ ...brand, footerText: e.target.value })}
                    />
                  </label>
                </div>
              ) : null}
            </>
          ) : (
            <p className="muted">White-label reports come with the Agency plan.</p>
          )}
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
    </section>
  );
}
