import {
  type AnchorHTMLAttributes,
  createContext,
  type ReactNode,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
} from 'react';
import { Router, useLocation as useWouterLocation } from 'wouter';

/**
 * The web app's router: wouter matches the routes (`Switch`, `Route` in app/router.tsx) and navigates;
 * this module gives it the location and adds the few pieces wouter leaves out, each behaving as the
 * screens relied on (docs/decisions/web-router.md):
 * - the address is React state set in a transition, so a page whose chunk is still loading leaves the
 *   page in view until it is ready (no blank flash between pages);
 * - each history entry the app makes carries a `key` (`useLocation().key` is `'default'` on the
 *   entry the app was opened on: the back arrow then leads to the account page, not out of the app);
 * - `Link` replaces instead of pushing when it leads to the address in view;
 * - `NavLink`'s active state (case-insensitive, the path or a path below it) and `aria-current="page"`;
 * - nested layouts (`Layout` and `Outlet`), `Navigate` and `useSearchParams` with a setter.
 */

export interface Location {
  pathname: string;
  /** With its leading `?`, or empty. */
  search: string;
  hash: string;
  /** The history entry's own key; `'default'` for an entry the app did not make (the first one). */
  key: string;
}

/** An absolute address, or parts of one (a missing pathname is the one in view). */
export type To = string | Partial<Pick<Location, 'pathname' | 'search' | 'hash'>>;

export interface NavigateOptions {
  replace?: boolean;
}

function readLocation(): Location {
  const { pathname, search, hash } = window.location;
  const state: { key?: unknown } | null = window.history.state;
  return { pathname, search, hash, key: typeof state?.key === 'string' ? state.key : 'default' };
}

const listeners = new Set<() => void>();

/** Makes or replaces the history entry; the entry's state keeps the shape `{ usr, key }`. */
function go(to: string, { replace = false }: NavigateOptions = {}): void {
  const state = { usr: null, key: Math.random().toString(36).slice(2, 10) };
  if (replace) window.history.replaceState(state, '', to);
  else {
    try {
      window.history.pushState(state, '', to);
    } catch {
      // Too many entries (Safari) or a state the browser refuses: load the address instead.
      window.location.assign(to);
      return;
    }
  }
  for (const listener of listeners) listener();
}

const LocationContext = createContext<Location | null>(null);

/** The location in view. */
export function useLocation(): Location {
  const location = useContext(LocationContext);
  if (!location) throw new Error('useLocation outside BrowserRouter');
  return location;
}

// wouter's hooks read the location through these two (wouter's `Router` `hook` and `searchHook`).
const useRouterLocation = (): [string, typeof go] => [useLocation().pathname, go];
const useRouterSearch = (): string => useLocation().search;

/** The router at the root: the browser's address, followed in a transition. */
export function BrowserRouter({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState(readLocation);
  useLayoutEffect(() => {
    const update = () => startTransition(() => setLocation(readLocation()));
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return (
    <LocationContext.Provider value={location}>
      <Router hook={useRouterLocation} searchHook={useRouterSearch}>
        {children}
      </Router>
    </LocationContext.Provider>
  );
}

function normalize(part: string | undefined, lead: '?' | '#'): string {
  if (!part || part === lead) return '';
  return part.startsWith(lead) ? part : `${lead}${part}`;
}

/** The address a `To` leads to from `location`. */
export function hrefOf(to: To, location: Pick<Location, 'pathname'>): string {
  if (typeof to === 'string') return to;
  return `${to.pathname ?? location.pathname}${normalize(to.search, '?')}${normalize(to.hash, '#')}`;
}

/** `navigate(to, { replace })`, or `navigate(-1)` to go back. */
export function useNavigate(): (to: To | number, options?: NavigateOptions) => void {
  const [, navigate] = useWouterLocation();
  const { pathname } = useLocation();
  return useCallback(
    (to: To | number, options?: NavigateOptions) => {
      if (typeof to === 'number') window.history.go(to);
      else navigate(hrefOf(to, { pathname }), options);
    },
    [navigate, pathname],
  );
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: To;
  /** Default: replace when the link leads to the address in view, push otherwise. */
  replace?: boolean;
}

/** A real link (`<a href>`) that a plain click follows inside the app. */
export function Link({ to, replace, onClick, target, ...rest }: LinkProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const href = hrefOf(to, location);
  return (
    <a
      {...rest}
      href={href}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || event.button !== 0 || (target && target !== '_self')) return;
        if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
        event.preventDefault();
        const here = `${location.pathname}${location.search}${location.hash}`;
        navigate(href, { replace: replace ?? here === href });
      }}
    />
  );
}

export interface NavLinkProps extends Omit<LinkProps, 'to' | 'className'> {
  to: string;
  /** A class, or a function of the state; a plain class gets `active` added while active. */
  className?: string | ((state: { isActive: boolean }) => string);
}

/** A link that knows whether its address (or one below it) is in view: `aria-current="page"`. */
export function NavLink({ to, className, ...rest }: NavLinkProps) {
  const pathname = useLocation().pathname.toLowerCase();
  const target = to.toLowerCase();
  const isActive = pathname === target || (pathname.startsWith(target) && pathname.charAt(target.length) === '/');
  return (
    <Link
      {...rest}
      to={to}
      aria-current={isActive ? 'page' : undefined}
      className={
        typeof className === 'function'
          ? className({ isActive })
          : [className, isActive ? 'active' : ''].filter(Boolean).join(' ')
      }
    />
  );
}

/** Goes to `to` once rendered (after the render is committed). */
export function Navigate({ to, replace }: { to: string; replace?: boolean }) {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace }), [navigate, to, replace]);
  return null;
}

const OutletContext = createContext<ReactNode>(null);

/** A layout around the routes inside it: `element` renders them where it puts `<Outlet />`. */
export function Layout({ element, children }: { element: ReactNode; children: ReactNode }) {
  return <OutletContext.Provider value={children}>{element}</OutletContext.Provider>;
}

/** Where a layout shows the route inside it. */
export function Outlet() {
  return useContext(OutletContext);
}

/** The query string as `URLSearchParams`, and a setter that replaces it (the hash is dropped). */
export function useSearchParams(): [
  URLSearchParams,
  (next: Record<string, string> | URLSearchParams, options?: NavigateOptions) => void,
] {
  const { search } = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = useCallback(
    (next: Record<string, string> | URLSearchParams, options?: NavigateOptions) => {
      navigate({ search: new URLSearchParams(next).toString() }, options);
    },
    [navigate],
  );
  return [params, setParams];
}

function decodePath(pathname: string): string {
  try {
    return decodeURI(pathname);
  } catch {
    return pathname;
  }
}

const patterns = new Map<string, RegExp>();

/**
 * A pattern matching any of `paths` as the router does: case-insensitive, one trailing slash allowed,
 * on the decoded address (give it to wouter's `Route`, or test an address with `matchesPath`).
 */
export function pathPattern(...paths: string[]): RegExp {
  const id = paths.join('\n');
  let pattern = patterns.get(id);
  if (!pattern) {
    const alternatives = paths.map((path) => path.replace(/\/$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    pattern = new RegExp(`^(?:${alternatives.join('|')})/?$`, 'i');
    patterns.set(id, pattern);
  }
  return pattern;
}

/** Whether an address (as in `location.pathname`) is `path`, matched like the routes. */
export function matchesPath(path: string, pathname: string): boolean {
  return pathPattern(path).test(decodePath(pathname));
}
