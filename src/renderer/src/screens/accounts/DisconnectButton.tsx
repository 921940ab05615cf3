// Disconnect, behind a confirmation: syncing stops (a running sync too) and the synced history stays.
import { useState } from 'react';
import type { AccountView } from '../../../../shared/ipc';
import { useCallMutation } from '../../api/hooks';

export function DisconnectButton(props: { account: AccountView }): React.JSX.Element {
  const { account } = props;
  const [asking, setAsking] = useState(false);
  const disconnect = useCallMutation('accounts.disconnect', ['accounts', 'campaigns']);
  if (!asking) {
    return (
      <button
        type="button"
        className="button subtle danger"
        aria-label={`Disconnect ${account.name}`}
        onClick={() => setAsking(true)}
      >
        Disconnect
      </button>
    );
  }
  return (
    <div className="confirm-box" role="alertdialog" aria-label={`Disconnect ${account.name}?`}>
      <p>
        <strong>Disconnect {account.name}?</strong> Syncing stops, including a sync in progress. Campaigns,
        diagnostics and reports synced so far stay available; reconnect at any time.
      </p>
      <div className="confirm-actions">
        <button
          type="button"
          className="button danger"
          disabled={disconnect.isPending}
          onClick={() => disconnect.mutate({ accountId: account.id }, { onSuccess: () => setAsking(false) })}
        >
          {disconnect.isPending ? 'Disconnecting…' : 'Yes, disconnect'}
        </button>
        <button type="button" className="button subtle" onClick={() => setAsking(false)}>
          Keep connected
        </button>
      </div>
      {disconnect.error ? (
        <p className="form-error small" role="alert">
          {disconnect.error.message}
        </p>
      ) : null}
    </div>
  );
}
