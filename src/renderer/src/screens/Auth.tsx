// Web dashboard only: accept an invitation (choose a password) and sign in. No sign-up exists.
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { postJson } from '../api/transport';
import { ErrorState, Loading } from '../components/ui';

export interface SessionInfo {
  user: { id: string; email: string; name: string | null; role: string };
  workspace: { id: string; name: string; plan: string };
  csrfToken: string;
}

function AuthCard(props: { title: string; children: React.ReactNode }): React.JSX.Element {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            ◎
          </span>
          AdLens
        </div>
        <h1>{props.title}</h1>
        {props.children}
      </div>
    </main>
  );
}

export function SignIn(props: {
  onSignedIn: (s: SessionInfo) => void;
  expired?: boolean;
}): React.JSX.Element {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(
    props.expired ? 'Your session ended. Sign in again.' : null,
  );
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    const result = await postJson<SessionInfo>('/auth/sign-in', { email, password });
    setBusy(false);
    if (result.ok) props.onSignedIn(result.value);
    else setError(result.error.message);
  };
  return (
    <AuthCard title="Sign in">
      <form onSubmit={(e) => void submit(e)} className="form">
        <label>
          Email
          <input
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label>
          Password
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="hint">Accounts are created by invitation. Ask your workspace owner for a link.</p>
      </form>
    </AuthCard>
  );
}

export function AcceptInvite(props: {
  token: string;
  onAccepted: (s: SessionInfo) => void;
}): React.JSX.Element {
  const invitation = useQuery({
    queryKey: ['auth.invitation', props.token],
    queryFn: async () => {
      const response = await fetch(`/auth/invitation?token=${encodeURIComponent(props.token)}`);
      const body = (await response.json()) as
        | { ok: true; value: { email: string; workspaceName: string } }
        | { ok: false; error: { message: string } };
      if (!body.ok) throw new Error(body.error.message);
      return body.value;
    },
    retry: false,
  });
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (password !== confirm) return setError('The two passwords differ.');
    setBusy(true);
    const result = await postJson<SessionInfo>('/auth/accept', {
      token: props.token,
      password,
      ...(name.trim() ? { name: name.trim() } : {}),
    });
    setBusy(false);
    if (result.ok) props.onAccepted(result.value);
    else setError(result.error.message);
  };

  if (invitation.isPending) return <Loading label="Opening your invitation…" />;
  if (invitation.isError)
    return (
      <AuthCard title="Invitation">
        <ErrorState error={invitation.error} />
        <a href="#/">Go to sign-in</a>
      </AuthCard>
    );
  return (
    <AuthCard title={`Join ${invitation.data.workspaceName}`}>
      <p className="subtitle">
        You were invited as <strong>{invitation.data.email}</strong>. Choose a password to finish.
      </p>
      <form onSubmit={(e) => void submit(e)} className="form">
        <label>
          Your name (optional)
          <input autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Password
          <input
            type="password"
            autoComplete="new-password"
            minLength={10}
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-describedby="password-hint"
          />
        </label>
        <span id="password-hint" className="hint">
          At least 10 characters.
        </span>
        <label>
          Confirm password
          <input
            type="password"
            autoComplete="new-password"
            required
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
          />
        </label>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Creating your account…' : 'Set password and sign in'}
        </button>
      </form>
    </AuthCard>
  );
}
