// `#/campaigns/camp_…?focus=adset_…`: a diagnostic's issue links to its ad set or ad row, which is
// scrolled into view, marked and focused once the campaign has loaded.
import { useEffect } from 'react';

export const rowId = (entityId: string): string => `row-${entityId}`;

export function useFocusRow(focusId: string | null, ready: boolean): void {
  useEffect(() => {
    if (!focusId || !ready) return;
    const row = document.getElementById(rowId(focusId));
    if (!row) return;
    row.scrollIntoView({ block: 'center' });
    row.focus({ preventScroll: true });
  }, [focusId, ready]);
}

/** The id every ad set and ad row carries, and the mark of the one a link asked for. */
export function focusProps(
  entityId: string,
  focusId: string | null,
): { id: string; className?: string; tabIndex?: number; 'aria-current'?: 'true' } {
  return entityId === focusId
    ? { id: rowId(entityId), className: 'row-focus', tabIndex: -1, 'aria-current': 'true' }
    : { id: rowId(entityId) };
}
