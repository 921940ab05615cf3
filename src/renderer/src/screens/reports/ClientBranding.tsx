// A client's report branding (Agency plan): agency name, colour, footer and logo, saved on the ad
// account and used by every report of that client, on demand and scheduled. Other plans get the
// documented refusal.
import { useEffect, useState } from 'react';
import type { WhiteLabel } from '../../../../shared/ipc';
import { useCall, useCallMutation } from '../../api/hooks';
import { Loading } from '../../components/ui';

const MAX_LOGO_BYTES = 256 * 1024;

function readLogo(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('could not read the file'));
    reader.readAsDataURL(file);
  });
}

export function ClientBranding(props: { accountId: string; accountName: string }): React.JSX.Element {
  const view = useCall(
    'reports.branding',
    { accountId: props.accountId },
    { enabled: Boolean(props.accountId) },
  );
  const save = useCallMutation('reports.setBranding', ['reports']);
  const [draft, setDraft] = useState<WhiteLabel>({ companyName: '' });
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (view.data) setDraft(view.data.branding ?? view.data.workspaceDefault ?? { companyName: '' });
  }, [view.data]);

  if (view.data && !view.data.allowed) {
    return (
      <fieldset className="client-branding">
        <legend>Client branding</legend>
        <p className="muted">White-label reports come with the Agency plan.</p>
      </fieldset>
    );
  }

  if (!view.data) {
    return (
      <fieldset className="client-branding">
        <legend>Client branding · {props.accountName}</legend>
        <Loading />
      </fieldset>
    );
  }

  const pickLogo = async (file: File | undefined): Promise<void> => {
    setProblem(null);
    if (!file) return;
    if (!['image/png', 'image/jpeg'].includes(file.type))
      return setProblem('The logo must be a PNG or JPEG image.');
    if (file.size > MAX_LOGO_BYTES) return setProblem('The logo must be at most 256 KB.');
    const uri = await readLogo(file);
    setDraft((d) => ({ ...d, logo: uri }));
  };

  return (
    <fieldset className="client-branding">
      <legend>Client branding · {props.accountName}</legend>
      <p className="hint">
        {view.data?.branding
          ? 'Saved for this client: every report of this account uses it.'
          : view.data?.workspaceDefault
            ? 'Not set for this client: reports use the workspace default.'
            : 'Not set: reports carry AdLens branding.'}
      </p>
      <div className="form-row">
        <label>
          Agency name
          <input
            value={draft.companyName}
            maxLength={100}
            onChange={(e) => setDraft({ ...draft, companyName: e.target.value })}
          />
        </label>
        <label>
          Brand colour
          <input
            type="color"
            value={draft.primaryColor ?? '#2563eb'}
            onChange={(e) => setDraft({ ...draft, primaryColor: e.target.value })}
          />
        </label>
        <label>
          Footer
          <input
            value={draft.footerText ?? ''}
            maxLength={200}
            onChange={(e) => setDraft({ ...draft, footerText: e.target.value })}
          />
        </label>
        <label>
          Logo (PNG or JPEG, ≤ 256 KB)
          <input
            type="file"
            accept="image/png,image/jpeg"
            onChange={(e) => void pickLogo(e.target.files?.[0])}
          />
        </label>
        {draft.logo ? <img className="branding-logo" src={draft.logo} alt="Client logo" /> : null}
      </div>
      {(problem ?? save.error) ? (
        <p className="form-error" role="alert">
          {problem ?? save.error?.message}
        </p>
      ) : null}
      <div className="choice-row">
        <button
          type="button"
          className="button"
          disabled={!draft.companyName.trim() || save.isPending}
          onClick={() =>
            save.mutate({
              accountId: props.accountId,
              branding: {
                companyName: draft.companyName.trim(),
                ...(draft.logo ? { logo: draft.logo } : {}),
                ...(draft.primaryColor ? { primaryColor: draft.primaryColor } : {}),
                ...(draft.footerText?.trim() ? { footerText: draft.footerText.trim() } : {}),
              },
            })
          }
        >
          Save client branding
        </button>
        {view.data?.branding ? (
          <button
            type="button"
            className="link-button"
            onClick={() => save.mutate({ accountId: props.accountId, branding: null })}
          >
            Use the workspace default
          </button>
        ) : null}
      </div>
    </fieldset>
  );
}
