// The shell: navigation, the web dashboard's sign-in gate, live events, and code-split screens.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useLiveEvents } from './api/events';
import { isDesktop, postJson, setCsrfToken, whenSignedOut } from './api/transport';
import { ErrorState, Loading } from './components/ui';
import { href, navigate, useRoute } from './router';
import { AcceptInvite, SignIn, type SessionInfo } from './screens/Auth';

type ScreenKey =
  | 'portfolio'
  | 'account'
  | 'accounts'
  | 'campaigns'
  | 'campaign'
  | 'diagnostics'
  | 'diagnostic'
  | 'reports'
  | 'insights'
  | 'settings';

// Code-split screens. The current route's chunk is requested at start-up, in parallel with the
// session check, so React never has to show (and then hold for its 300 ms reveal throttle) a fallback.
const loaders: Record<ScreenKey, () => Promise<unknown>> = {
  portfolio: () => import('./screens/Portfolio'),
  account: () => import('./screens/AccountOverview'),
  accounts: () => import('./screens/Accounts'),
  campaigns: () => import('./screens/Campaigns'),
  campaign: () => import('./screens/CampaignDetail'),
  diagnostics: () => import('./screens/Diagnostics'),
  diagnostic: () => import('./screens/DiagnosticDetail'),
  reports: () => import('./screens/Reports'),
  insights: () => import('./screens/Insights'),
  settings: () => import('./screens/Settings'),
};

function screenKey(hash: string): ScreenKey {
  const [first, second] = hash.replace(/^#\/?/, '').split('?')[0]?.split('/') ?? [];
  if (first === 'campaigns') return second ? 'campaign' : 'campaigns';
  if (first === 'diagnostics') return second ? 'diagnostic' : 'diagnostics';
  if (first === 'reports' || first === 'insights' || first === 'settings') return first;
  if (first === 'accounts') return second ? 'account' : 'accounts';
  return 'portfolio';
}

type ScreenModule<P> = { default: (props: P) => React.JSX.Element };
const loaded = new Map<ScreenKey, unknown>();

/** React.lazy, except that a chunk already loaded renders at once (no fallback, no throttle). */
function screen<P extends object>(key: ScreenKey): (props: P) => React.JSX.Element {
  const Lazy = lazy(loaders[key] as () => Promise<ScreenModule<P>>);
  return function LoadedScreen(props: P) {
    const module = loaded.get(key) as ScreenModule<P> | undefined;
    return module ? <module.default {...props} /> : <Lazy {...props} />;
  };
}

for (const key of Object.keys(loaders) as ScreenKey[]) {
  const load = loaders[key];
  loaders[key] = () => load().then((m) => (loaded.set(key, m), m));
}
void loaders[screenKey(window.location.hash)]();

const Portfolio = screen<object>('portfolio');
const AccountOverview = screen<{ accountId: string }>('account');
const Accounts = screen<object>('accounts');
const Campaigns = screen<object>('campaigns');
const CampaignDetail = screen<{ campaignId: string }>('campaign');
const Diagnostics = screen<object>('diagnostics');
const DiagnosticDetail = screen<{ diagnosticId: string }>('diagnostic');
const Reports = screen<object>('reports');
const Insights = screen<object>('insights');
const Settings = screen<object>('settings');

const NAV = [
  { path: '/portfolio', label: 'Portfolio' },
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
    case 'accounts':
      return second ? <AccountOverview accountId={second} /> : <Accounts />;
    default:
      // The portfolio is the first screen (no route, or #/portfolio).
      return <Portfolio />;
  }
}

function Shell(props: { session: SessionInfo | null; onSignOut?: () => void }): React.JSX.Element {
  const route = useRoute();
  useLiveEvents(true);
  // An account's overview belongs to the portfolio it was opened from.
  const current =
    route.segments[0] === 'accounts' && route.segments[1]
      ? '/portfolio'
      : `/${route.segments[0] ?? 'portfolio'}`;
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
      // Set before any screen renders: their first calls must already carry the CSRF token.
      setCsrfToken(body.value.csrfToken);
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
    // The portfolio is the first screen: which client needs the analyst today.
    navigate('/portfolio');
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
