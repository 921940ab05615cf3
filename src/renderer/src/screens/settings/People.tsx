// People (owner only): who has access to the workspace, with their role and status; disable, enable
// or remove someone. Disabling ends their sessions and live streams and revokes their API keys.
import type { UserView } from '../../../../shared/ipc';
import { useCall, useCallMutation } from '../../api/hooks';
import { ErrorState, Loading, StatusPill } from '../../components/ui';
import { date, titleCase } from '../../format';

function Actions(props: { user: UserView; self: boolean }): React.JSX.Element | null {
  const disable = useCallMutation('users.disable', ['users', 'keys']);
  const enable = useCallMutation('users.enable', ['users']);
  const remove = useCallMutation('users.remove', ['users', 'keys']);
  const { user } = props;
  if (props.self) return <span className="muted">You</span>;
  const who = user.name ?? user.email;
  const error = disable.error ?? enable.error ?? remove.error;
  return (
    <div className="row-actions">
      {user.status === 'active' ? (
        <button
          type="button"
          className="button subtle"
          aria-label={`Disable ${who}`}
          onClick={() => {
            if (window.confirm(`Disable ${who}? Their sessions end and their API keys are revoked.`))
              disable.mutate({ userId: user.id });
          }}
        >
          Disable
        </button>
      ) : (
        <button
          type="button"
          className="button subtle"
          aria-label={`Enable ${who}`}
          onClick={() => enable.mutate({ userId: user.id })}
        >
          Enable
        </button>
      )}
      <button
        type="button"
        className="button subtle danger"
        aria-label={`Remove ${who}`}
        onClick={() => {
          if (window.confirm(`Remove ${who} from this workspace? What they did stays in the history.`))
            remove.mutate({ userId: user.id });
        }}
      >
        Remove
      </button>
      {error ? <span className="form-error">{error.message}</span> : null}
    </div>
  );
}

export function People(props: { selfId: string }): React.JSX.Element {
  const users = useCall('users.list', {});
  if (users.isPending) return <Loading />;
  if (users.isError) return <ErrorState error={users.error} onRetry={() => void users.refetch()} />;
  return (
    <table className="data-table static">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Email</th>
          <th scope="col">Role</th>
          <th scope="col">Since</th>
          <th scope="col">Status</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {users.data.map((u) => (
          <tr key={u.id}>
            <td>{u.name ?? <span className="muted">—</span>}</td>
            <td>{u.email}</td>
            <td>{titleCase(u.role)}</td>
            <td>{date(u.createdAt)}</td>
            <td>
              <StatusPill status={u.status} />
            </td>
            <td>
              <Actions user={u} self={u.id === props.selfId} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
