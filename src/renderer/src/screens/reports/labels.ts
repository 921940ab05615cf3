// Labels shared by the Reports screen's parts.
export const FORMAT_LABEL = { pdf: 'PDF', markdown: 'Markdown', json: 'JSON' } as const;
export const CADENCE_LABEL = { weekly: 'Weekly', monthly: 'Monthly' } as const;

/** A run's due time with its weekday, in the viewer's time zone: "Mon 6 Apr 2026, 08:00". */
export function dueTime(iso: string): string {
  return new Date(iso).toLocaleString('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}
