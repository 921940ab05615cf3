// The one date-range control of the app (Campaigns, campaign detail, Insights, Reports): Ads Manager's
// presets, a custom range with calendar inputs, and "compare to". The core resolves the choice in each
// account's time zone (src/shared/date-ranges.ts is the rule); each screen remembers its own choice.
import { useCallback, useState } from 'react';
import {
  COMPARE_LABELS,
  COMPARE_MODES,
  DATE_PRESETS,
  PRESET_LABELS,
  shiftDays,
  type CompareMode,
  type DatePreset,
  type DateRangeSpec,
  type DateWindow,
} from '../../../shared/date-ranges';
import { date } from '../format';

export type { DateRangeSpec } from '../../../shared/date-ranges';

const STORAGE_PREFIX = 'adlens:date-range:';
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A stored choice, checked by hand (the renderer bundle carries no zod). */
function parseStored(text: string | null): DateRangeSpec | null {
  if (!text) return null;
  try {
    const raw = JSON.parse(text) as Partial<DateRangeSpec>;
    const preset = raw.preset;
    const compare = raw.compare ?? 'none';
    if (preset !== 'custom' && !(DATE_PRESETS as readonly string[]).includes(preset ?? '')) return null;
    if (!(COMPARE_MODES as readonly string[]).includes(compare)) return null;
    if (preset === 'custom') {
      if (!ISO_DATE.test(raw.from ?? '') || !ISO_DATE.test(raw.to ?? '') || (raw.from ?? '') > (raw.to ?? ''))
        return null;
      return { preset, from: raw.from, to: raw.to, compare };
    }
    return { preset: preset as DatePreset, compare };
  } catch {
    return null;
  }
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * A screen's date range, remembered in this browser per screen (`screen` is the key: "campaigns",
 * "campaign-detail", "insights", "reports").
 */
export function useDateRange(
  screen: string,
  fallback: DateRangeSpec,
): [DateRangeSpec, (next: DateRangeSpec) => void] {
  const key = `${STORAGE_PREFIX}${screen}`;
  const [spec, setSpec] = useState<DateRangeSpec>(
    () => parseStored(storage()?.getItem(key) ?? null) ?? fallback,
  );
  const update = useCallback(
    (next: DateRangeSpec) => {
      setSpec(next);
      storage()?.setItem(key, JSON.stringify(next));
    },
    [key],
  );
  return [spec, update];
}

/** "1 Mar 2026 – 7 Mar 2026 vs 22 Feb – 28 Feb 2026" from what the core resolved. */
export function rangeText(window: DateWindow | undefined, comparison: DateWindow | null | undefined): string {
  if (!window) return '';
  const main = `${date(window.from)} – ${date(window.to)}`;
  return comparison ? `${main} vs ${date(comparison.from)} – ${date(comparison.to)}` : main;
}

export function DateRangePicker(props: {
  value: DateRangeSpec;
  onChange: (next: DateRangeSpec) => void;
  /** The dates the core resolved for the current value (to start a custom range from them). */
  resolved?: DateWindow | undefined;
  /** Without "compare to" (a screen that shows no comparison). */
  noCompare?: boolean;
  id?: string;
}): React.JSX.Element {
  const id = props.id ?? 'date-range';
  const { value, onChange } = props;
  const today = new Date().toISOString().slice(0, 10);
  const setPreset = (preset: DatePreset | 'custom'): void => {
    if (preset !== 'custom') return onChange({ preset, compare: value.compare });
    const from = props.resolved?.from ?? shiftDays(today, -7);
    const to = props.resolved?.to ?? shiftDays(today, -1);
    onChange({ preset, from, to, compare: value.compare });
  };
  const setDates = (from: string | undefined, to: string | undefined): void => {
    // Half-typed dates are kept out: a range is only sent once both ends are dates in order.
    if (!from || !to || !ISO_DATE.test(from) || !ISO_DATE.test(to)) return;
    onChange({
      preset: 'custom',
      from: from <= to ? from : to,
      to: from <= to ? to : from,
      compare: value.compare,
    });
  };
  return (
    <fieldset className="date-range" data-testid="date-range">
      <legend className="visually-hidden">Reporting period</legend>
      <label className="field-inline" htmlFor={`${id}-preset`}>
        <span>Date range</span>
        <select
          id={`${id}-preset`}
          value={value.preset}
          onChange={(e) => setPreset(e.target.value as DatePreset | 'custom')}
        >
          {[...DATE_PRESETS, 'custom' as const].map((p) => (
            <option key={p} value={p}>
              {PRESET_LABELS[p]}
            </option>
          ))}
        </select>
      </label>
      {value.preset === 'custom' ? (
        <>
          <label className="field-inline" htmlFor={`${id}-from`}>
            <span>From</span>
            <input
              id={`${id}-from`}
              type="date"
              value={value.from ?? ''}
              max={today}
              onChange={(e) => setDates(e.target.value, value.to)}
            />
          </label>
          <label className="field-inline" htmlFor={`${id}-to`}>
            <span>To</span>
            <input
              id={`${id}-to`}
              type="date"
              value={value.to ?? ''}
              max={today}
              onChange={(e) => setDates(value.from, e.target.value)}
            />
          </label>
        </>
      ) : null}
      {props.noCompare ? null : (
        <label className="field-inline" htmlFor={`${id}-compare`}>
          <span>Compare to</span>
          <select
            id={`${id}-compare`}
            value={value.compare}
            onChange={(e) => onChange({ ...value, compare: e.target.value as CompareMode })}
          >
            {COMPARE_MODES.map((m) => (
              <option key={m} value={m}>
                {COMPARE_LABELS[m]}
              </option>
            ))}
          </select>
        </label>
      )}
    </fieldset>
  );
}
