// Saved views of the campaigns table: pick one to restore its columns, sort, filters and date range;
// save the current set-up under a name (the same name replaces it), or delete the one picked.
import { useState } from 'react';
import type { SavedView, SavedViewDefinition } from '../../../../shared/api/saved-views';
import { useCall, useCallMutation } from '../../api/hooks';

export function SavedViews(props: {
  current: SavedViewDefinition;
  onApply: (view: SavedView) => void;
}): React.JSX.Element {
  const views = useCall('views.list', { screen: 'campaigns' });
  const save = useCallMutation('views.save', ['views']);
  const remove = useCallMutation('views.remove', ['views']);
  const [picked, setPicked] = useState('');
  const [name, setName] = useState('');
  const [naming, setNaming] = useState(false);
  const list = views.data ?? [];
  return (
    <div className="saved-views" role="group" aria-label="Saved views">
      <label className="field-inline" htmlFor="saved-view">
        <span>Saved view</span>
        <select
          id="saved-view"
          value={picked}
          onChange={(e) => {
            setPicked(e.target.value);
            const view = list.find((v) => v.id === e.target.value);
            if (view) props.onApply(view);
          }}
        >
          <option value="">{list.length === 0 ? 'No saved views' : 'Choose a view…'}</option>
          {list.map((v) => (
            <option key={v.id} value={v.id}>
              {v.name}
            </option>
          ))}
        </select>
      </label>
      {naming ? (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate(
              { screen: 'campaigns', name, definition: props.current },
              {
                onSuccess: (view) => {
                  setPicked(view.id);
                  setNaming(false);
                },
              },
            );
          }}
        >
          <label className="field-inline" htmlFor="saved-view-name">
            <span>View name</span>
            <input
              id="saved-view-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={80}
              required
              autoFocus
            />
          </label>
          <button type="submit" className="button primary" disabled={save.isPending}>
            Save
          </button>
          <button type="button" className="button" onClick={() => setNaming(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <button
          type="button"
          className="button"
          onClick={() => {
            setName(list.find((v) => v.id === picked)?.name ?? '');
            setNaming(true);
          }}
        >
          Save view…
        </button>
      )}
      {picked && !naming ? (
        <button
          type="button"
          className="button"
          onClick={() => remove.mutate({ id: picked }, { onSuccess: () => setPicked('') })}
        >
          Delete view
        </button>
      ) : null}
      {save.isError ? (
        <p role="alert" className="form-error">
          {save.error.message}
        </p>
      ) : null}
    </div>
  );
}
