// A tiny hash router: `#/campaigns/camp_…?range=30`. Hash routes work the same from file:// in the
// desktop window and from / in the web dashboard.
import { useSyncExternalStore } from 'react';

export interface Route {
  path: string;
  segments: string[];
  query: URLSearchParams;
}

function parse(hash: string): Route {
  const raw = hash.replace(/^#/, '') || '/';
  const [path = '/', search = ''] = raw.split('?');
  return { path, segments: path.split('/').filter(Boolean), query: new URLSearchParams(search) };
}

const subscribe = (notify: () => void): (() => void) => {
  window.addEventListener('hashchange', notify);
  return () => window.removeEventListener('hashchange', notify);
};

export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  return parse(hash);
}

export function navigate(path: string): void {
  window.location.hash = path;
}

export const href = (path: string): string => `#${path}`;

/** Replaces the query of the current route without adding a history entry per keystroke. */
export function setQuery(route: Route, changes: Record<string, string | null>): void {
  const query = new URLSearchParams(route.query);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === '') query.delete(key);
    else query.set(key, value);
  }
  const text = query.toString();
  window.history.replaceState(null, '', `#${route.path}${text ? `?${text}` : ''}`);
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}
