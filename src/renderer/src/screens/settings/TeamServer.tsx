// Settings > Team server (desktop only): the window shows the local store or a team server's dashboard.
// The choice lives in main (validated and persisted there); this panel reads and changes it through the
// preload's `teamServer` functions, which the web dashboard does not have (so it never shows this).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Result } from '../../../../shared/errors';
import type { TeamServerBridge, TeamServerView } from '../../../../shared/ipc';
import { CallError } from '../../api/transport';
import { ErrorState, Loading } from '../../components/ui';

const QUERY_KEY = ['desktop.teamServer'];

/** The team-server bridge of the desktop preload, or undefined in the web dashboard. */
export const teamServerBridge = (): TeamServerBridge | undefined =>
  typeof window === 'undefined' ? undefined : window.adlens?.teamServer;

async function unwrap(result: Promise<Result<TeamServerView>>): Promise<TeamServerView> {
  const settled = await result;
  if (!settled.ok) throw new CallError(settled.error.type, settled.error.message);
  return settled.value;
}

export function TeamServer(props: { bridge: TeamServerBridge }): React.JSX.Element {
  const { bridge } = props;
  const client = useQueryClient();
  const current = useQuery<TeamServerView, CallError>({
    queryKey: QUERY_KEY,
    queryFn: () => unwrap(bridge.get()),
  });
  const change = useMutation<TeamServerView, CallError, { to: 'team'; url: string } | { to: 'local' }>({
    mutationFn: (next) => unwrap(next.to === 'team' ? bridge.use(next.url) : bridge.useLocal()),
    onSuccess: (view) => client.setQueryData(QUERY_KEY, view),
  });
  const [url, setUrl] = useState<string | null>(null);
  if (current.isPending) return <Loading />;
  if (current.isError) return <ErrorState error={current.error} onRetry={() => void current.refetch()} />;
  const view = current.data;
  const typed = url ?? view.url ?? '';
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    change.mutate({ to: 'team', url: typed });
  };
  return (
    <>
      <p className="muted small">
        Use your agency&apos;s AdLens team server instead of this computer&apos;s store: the window then shows
        the team&apos;s accounts and reports, and you sign in there (or accept your invitation). The local
        store stays here for solo work and the demo; the Team Server menu switches back.
      </p>
      <p role="status" data-testid="team-server-mode">
        {view.mode === 'team' && view.url ? (
          <>
            Now: <strong>team server</strong> <code>{view.url}</code>
          </>
        ) : (
          <>
            Now: <strong>local store</strong> (this computer)
          </>
        )}
      </p>
      <form className="form form-row" onSubmit={submit} aria-label="Team server">
        <label>
          Team server address
          <input
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://adlens.agency.example"
            value={typed}
            aria-describedby="team-server-hint"
            onChange={(e) => setUrl(e.target.value)}
          />
        </label>
        <button type="submit" className="button primary" disabled={change.isPending || typed.trim() === ''}>
          Use team server
        </button>
        <button
          type="button"
          className="button"
          disabled={change.isPending || view.mode === 'local'}
          onClick={() => change.mutate({ to: 'local' })}
        >
          Use local store
        </button>
      </form>
      <p id="team-server-hint" className="muted small">
        https:// (plain http:// only for a server on this computer). An invitation link works too.
      </p>
      {change.error ? (
        <p className="form-error" role="alert">
          {change.error.message}
        </p>
      ) : null}
    </>
  );
}
