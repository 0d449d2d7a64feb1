import { useSearchParams } from 'react-router';

/** How a filter is read from the URL: free text, a positive whole number, or one of a list. */
type Kind = 'text' | 'id' | readonly string[];
type Value<K> = K extends readonly (infer E)[] ? E : K extends 'id' ? number : string;
export type UrlFilters<S extends Record<string, Kind>> = { [N in keyof S]?: Value<S[N]> };

function read<S extends Record<string, Kind>>(spec: S, params: URLSearchParams): UrlFilters<S> {
  const filters: Record<string, string | number> = {};
  for (const [name, kind] of Object.entries(spec)) {
    const raw = params.get(name);
    if (raw === null || raw === '') continue;
    if (kind === 'text') filters[name] = raw;
    else if (kind === 'id') {
      if (/^[1-9]\d{0,15}$/.test(raw)) filters[name] = Number(raw);
    } else if (kind.includes(raw)) filters[name] = raw;
  }
  return filters as UrlFilters<S>;
}

/**
 * A page's filters kept in the URL's query (`#/withdrawals?state=pending&userId=7`), so a link, a
 * reload or the back button shows the same list. A value the page does not know is ignored.
 */
export function useUrlFilters<S extends Record<string, Kind>>(spec: S): [UrlFilters<S>, (next: UrlFilters<S>) => void] {
  const [params, setParams] = useSearchParams();
  const filters = read(spec, params);
  const set = (next: UrlFilters<S>) => {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(next)) {
      if (value !== undefined && value !== '') query.set(name, String(value));
    }
    setParams(query, { replace: true });
  };
  return [filters, set];
}
