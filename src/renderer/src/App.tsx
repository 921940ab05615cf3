// The shell: navigation, the web dashboard's sign-in gate, live events, and code-split screens.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useLiveEvents } from './api/events';
import { isDesktop, postJson, setCsrfToken, whenSignedOut } from './api/transport';
import { ErrorState, Loading } from './components/ui';
import { href, navigate, useRoute } from './router';
import { AcceptInvite, SignIn, type SessionInfo } from './screens/Auth';

const Accounts = lazy(() => import('./screens/Accounts'));
const Campaigns = lazy(() => import('./screens/Campaigns'));
const CampaignDetail = lazy(() => import('./screens/CampaignDetail'));
const Diagnostics = lazy(() => import('./screens/Diagnostics'));
const DiagnosticDetail = lazy(() => import('./screens/DiagnosticDetail'));
const Reports = lazy(() => import('./screens/Reports'));
const Insights = lazy(() => import('./screens/Insights'));
const Settings = lazy(() => import('./screens/Settings'));

const NAV = [
  { path: '/accounts', label: 'Accounts' },
  { path: '/campaigns', label: 'Campaigns' },
  { path: '/diagnostics', label: 'Diagnostics' },
  { path: '/reports', label: 'Reports' },
  { path: '/insights', label: 'Insights' },
  { path: '/settings', label: 'Settings' },
];

function Screen(): React.JSX.Element {
  const route = useRoute();
  const [first, second] = route.segments;
  switch (first) {
    case 'campaigns':
      return second ? <CampaignDetail campaignId={second} /> : <Campaigns />;
    case 'diagnostics':
      return second ? <DiagnosticDetail diagnosticId={second} /> : <Diagnostics />;
    case 'reports':
      return <Reports />;
    case 'insights':
      return <Insights />;
    case 'settings':
      return <Settings />;
    default:
      return <Accounts />;
  }
}

function Shell(props: { session: SessionInfo | null; onSignOut?: () => void }): React.JSX.Element {
  const route = useRoute();
  useLiveEvents(true);
  const current = `/${route.segments[0] ?? 'accounts'}`;
  useEffect(() => {
    const label = NAV.find((n) => n.path === current)?.label ?? 'AdLens';
    document.title = `${label} · AdLens`;
  }, [current]);
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <nav className="sidebar" aria-label="Main">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            ◎
          </span>
          AdLens
        </div>
        <ul>
          {NAV.map((item) => (
            <li key={item.path}>
              <a href={href(item.path)} aria-current={current === item.path ? 'page' : undefined}>
                {item.label}
              </a>
            </li>
          ))}
        </ul>
        {props.session ? (
          <div className="sidebar-foot">
            <span className="who" title={props.session.user.email}>
              {props.session.user.name ?? props.session.user.email}
            </span>
            <button type="button" className="link-button" onClick={props.onSignOut}>
              Sign out
            </button>
          </div>
        ) : null}
      </nav>
      <main id="main" className="main" tabIndex={-1}>
        <Suspense fallback={<Loading />}>
          <Screen />
        </Suspense>
      </main>
    </div>
  );
}

/** The browser dashboard: a session is required; invitations open the accept page. */
function WebApp(): React.JSX.Element {
  const route = useRoute();
  const client = useQueryClient();
  const [signedOut, setSignedOut] = useState(false);
  const session = useQuery<SessionInfo | null>({
    queryKey: ['auth.session'],
    queryFn: async () => {
      const response = await fetch('/auth/session', { credentials: 'same-origin' });
      if (response.status === 401) return null;
      const body = (await response.json()) as { ok: boolean; value?: SessionInfo };
      if (!body.ok || !body.value) throw new Error('Could not read the session.');
      return body.value;
    },
    staleTime: Infinity,
  });
  useEffect(() => {
    whenSignedOut(() => setSignedOut(true));
  }, []);
  useEffect(() => {
    setCsrfToken(session.data?.csrfToken ?? null);
    if (session.data) setSignedOut(false);
  }, [session.data]);

  const signedIn = (info: SessionInfo): void => {
    setCsrfToken(info.csrfToken);
    client.setQueryData(['auth.session'], info);
    navigate('/accounts');
  };

  if (route.segments[0] === 'invite' && route.segments[1]) {
    return <AcceptInvite token={route.segments[1]} onAccepted={signedIn} />;
  }
  if (session.isPending) return <Loading label="Checking your session…" />;
  if (session.isError) return <ErrorState error={session.error} onRetry={() => void session.refetch()} />;
  if (!session.data || signedOut) return <SignIn onSignedIn={signedIn} expired={signedOut} />;
  const signOut = async (): Promise<void> => {
    await postJson('/auth/sign-out', {});
    setCsrfToken(null);
    client.setQueryData(['auth.session'], null);
    client.removeQueries({ predicate: (query) => query.queryKey[0] !== 'auth.session' });
  };
  return <Shell session={session.data} onSignOut={() => void signOut()} />;
}

export function App(): React.JSX.Element {
  return isDesktop() ? <Shell session={null} /> : <WebApp />;
}
