// Column sets (Performance, Delivery, Engagement) and a chooser: tick columns, move them up or down.
// The campaign name always stays first, so every row can still be opened and read.
import { useState } from 'react';
import { COLUMNS, COLUMN_BY_KEY, COLUMN_SETS } from './columns';

type SetKey = keyof typeof COLUMN_SETS;

export function ColumnSets(props: {
  columns: string[];
  onChange: (columns: string[]) => void;
}): React.JSX.Element {
  const current = (Object.keys(COLUMN_SETS) as SetKey[]).find(
    (k) => COLUMN_SETS[k].columns.join() === props.columns.join(),
  );
  return (
    <label className="field-inline" htmlFor="column-set">
      <span>Columns</span>
      <select
        id="column-set"
        value={current ?? 'custom'}
        onChange={(e) => {
          const set = COLUMN_SETS[e.target.value as SetKey] as (typeof COLUMN_SETS)[SetKey] | undefined;
          if (set) props.onChange([...set.columns]);
        }}
      >
        {(Object.keys(COLUMN_SETS) as SetKey[]).map((k) => (
          <option key={k} value={k}>
            {COLUMN_SETS[k].label}
          </option>
        ))}
        {current ? null : <option value="custom">Custom</option>}
      </select>
    </label>
  );
}

export function ColumnChooser(props: {
  columns: string[];
  onChange: (columns: string[]) => void;
}): React.JSX.Element {
  const [open, setOpen] = useState(false);
  const shown = props.columns;
  const hidden = COLUMNS.filter((c) => !shown.includes(c.key));
  const move = (key: string, by: -1 | 1): void => {
    const i = shown.indexOf(key);
    const j = i + by;
    if (i < 1 || j < 1 || j >= shown.length) return;
    const next = [...shown];
    [next[i], next[j]] = [next[j] as string, next[i] as string];
    props.onChange(next);
  };
  return (
    <div className="column-chooser">
      <button
        type="button"
        className="button"
        aria-expanded={open}
        aria-controls="column-chooser-panel"
        onClick={() => setOpen(!open)}
      >
        Choose columns…
      </button>
      {open ? (
        <div
          id="column-chooser-panel"
          className="chooser-panel"
          role="group"
          aria-label="Choose columns"
          onKeyDown={(e) => {
            if (e.key === 'Escape') setOpen(false);
          }}
        >
          <ol className="chooser-list">
            {shown.map((key, i) => {
              const c = COLUMN_BY_KEY.get(key);
              if (!c) return null;
              return (
                <li key={key}>
                  <label>
                    <input
                      type="checkbox"
                      checked
                      disabled={key === 'name'}
                      onChange={() => props.onChange(shown.filter((k) => k !== key))}
                    />
                    {c.label}
                  </label>
                  <span className="chooser-move">
                    <button
                      type="button"
                      aria-label={`Move ${c.label} left`}
                      disabled={i < 2}
                      onClick={() => move(key, -1)}
                    >
                      ↑
                    </button>
                    <button
                      type="button"
                      aria-label={`Move ${c.label} right`}
                      disabled={i === 0 || i === shown.length - 1}
                      onClick={() => move(key, 1)}
                    >
                      ↓
                    </button>
                  </span>
                </li>
              );
            })}
          </ol>
          {hidden.length > 0 ? (
            <ul className="chooser-list hidden-columns" aria-label="Hidden columns">
              {hidden.map((c) => (
                <li key={c.key}>
                  <label>
                    <input
                      type="checkbox"
                      checked={false}
                      onChange={() => props.onChange([...shown, c.key])}
                    />
                    {c.label}
                  </label>
                </li>
              ))}
            </ul>
          ) : null}
          <button type="button" className="button" onClick={() => setOpen(false)}>
            Done
          </button>
        </div>
      ) : null}
    </div>
  );
}
