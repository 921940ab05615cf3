// A keyboard-navigable table that renders only the rows in view (plus a margin), so a list of
// thousands scrolls as smoothly as a list of ten. Arrow keys move between rows, Enter opens one.
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface Column<T> {
  key: string;
  label: string;
  /** Fixed width in px; the one column without a width takes the remaining space. */
  width?: number;
  numeric?: boolean;
  /** A hint on the header (what the column counts). */
  title?: string;
  render: (row: T) => ReactNode;
  /** The column's cell in the totals row, when the table has one. */
  footer?: ReactNode;
}

const DEFAULT_ROW_HEIGHT = 40;
const OVERSCAN = 8;
const FLEX_MIN_WIDTH = 260;

export function VirtualTable<T>(props: {
  label: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  sortKey: string;
  sortDir: 'asc' | 'desc';
  onSort: (key: string) => void;
  onOpen: (row: T) => void;
  /** Taller rows carry a second line (changes against the comparison period, long names). */
  rowHeight?: number;
  /** A totals row, kept in view at the bottom. */
  footer?: boolean;
  /** A title (tooltip) for a row. */
  rowTitle?: (row: T) => string;
}): React.JSX.Element {
  const { rows, columns } = props;
  const rowHeight = props.rowHeight ?? DEFAULT_ROW_HEIGHT;
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  const [active, setActive] = useState(0);
  const focusPending = useRef(false);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return undefined;
    const measure = (): void => setHeight(el.clientHeight);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const safeActive = Math.min(active, Math.max(0, rows.length - 1));
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN);
  const visible = rows.slice(first, last);

  useEffect(() => {
    if (!focusPending.current) return;
    focusPending.current = false;
    scroller.current
      ?.querySelector<HTMLElement>(`[data-row-index="${safeActive}"]`)
      ?.focus({ preventScroll: true });
  });

  const moveTo = (index: number): void => {
    const next = Math.max(0, Math.min(rows.length - 1, index));
    setActive(next);
    focusPending.current = true;
    const el = scroller.current;
    if (!el) return;
    const top = next * rowHeight;
    // The sticky header (and totals row) cover part of the view.
    const header = DEFAULT_ROW_HEIGHT + (props.footer ? DEFAULT_ROW_HEIGHT : 0);
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + rowHeight + header > el.scrollTop + el.clientHeight)
      el.scrollTop = top + rowHeight + header - el.clientHeight;
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTableRowElement>, index: number, row: T): void => {
    const page = Math.max(1, Math.floor(height / rowHeight) - 1);
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      PageDown: index + page,
      PageUp: index - page,
      Home: 0,
      End: rows.length - 1,
    };
    const target = moves[e.key];
    if (target !== undefined) {
      e.preventDefault();
      moveTo(target);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      props.onOpen(row);
    }
  };

  return (
    <div
      className="table-scroll"
      ref={scroller}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      data-testid="virtual-table"
    >
      <table
        className="data-table"
        aria-label={props.label}
        aria-rowcount={rows.length + (props.footer ? 2 : 1)}
        // The fixed columns plus room for the flexible one (names): scroll sideways rather than cut.
        style={{ minWidth: columns.reduce((sum, c) => sum + (c.width ?? FLEX_MIN_WIDTH), 0) }}
      >
        <colgroup>
          {columns.map((c) => (
            <col key={c.key} style={c.width ? { width: c.width } : undefined} />
          ))}
        </colgroup>
        <thead>
          <tr aria-rowindex={1}>
            {columns.map((c) => {
              const sorted = props.sortKey === c.key;
              return (
                <th
                  key={c.key}
                  scope="col"
                  className={c.numeric ? 'num' : undefined}
                  aria-sort={sorted ? (props.sortDir === 'asc' ? 'ascending' : 'descending') : 'none'}
                  title={c.title}
                >
                  <button type="button" className="sort-button" onClick={() => props.onSort(c.key)}>
                    {c.label}
                    <span className="sort-mark" aria-hidden="true">
                      {sorted ? (props.sortDir === 'asc' ? '▲' : '▼') : ''}
                    </span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {first > 0 ? (
            <tr className="spacer" aria-hidden="true">
              <td colSpan={columns.length} style={{ height: first * rowHeight }} />
            </tr>
          ) : null}
          {visible.map((row, offset) => {
            const index = first + offset;
            return (
              <tr
                key={props.rowKey(row)}
                data-row-index={index}
                aria-rowindex={index + 2}
                style={props.rowHeight ? { height: rowHeight } : undefined}
                title={props.rowTitle?.(row)}
                tabIndex={index === safeActive ? 0 : -1}
                className="clickable"
                onClick={() => props.onOpen(row)}
                onFocus={() => setActive(index)}
                onKeyDown={(e) => onKeyDown(e, index, row)}
              >
                {columns.map((c) => (
                  <td key={c.key} className={c.numeric ? 'num' : undefined}>
                    {c.render(row)}
                  </td>
                ))}
              </tr>
            );
          })}
          {last < rows.length ? (
            <tr className="spacer" aria-hidden="true">
              <td colSpan={columns.length} style={{ height: (rows.length - last) * rowHeight }} />
            </tr>
          ) : null}
        </tbody>
        {props.footer ? (
          <tfoot>
            <tr className="totals-row" aria-rowindex={rows.length + 2}>
              {columns.map((c) => (
                <td key={c.key} className={c.numeric ? 'num' : undefined}>
                  {c.footer}
                </td>
              ))}
            </tr>
          </tfoot>
        ) : null}
      </table>
    </div>
  );
}
