import { useLocation } from '../lib/router';
import { type AppRoute, routeOf } from './routes';

/** The route table entry of the page in view. */
export function useCurrentRoute(): AppRoute | undefined {
  return routeOf(useLocation().pathname);
}
