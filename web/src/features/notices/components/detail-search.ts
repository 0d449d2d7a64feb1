import type { InboxItem, InboxKind } from '@kamai/contract';

/** /List1 holds list and detail (spec section 2): `?kind=notice&id=3` opens one item, Back returns. */
export function detailSearch(item: Pick<InboxItem, 'kind' | 'id'>): string {
  return `?kind=${item.kind}&id=${item.id}`;
}

export function detailOf(params: URLSearchParams): { kind: InboxKind; id: number } | undefined {
  const kind = params.get('kind') === 'notification' ? 'notification' : 'notice';
  const id = Number(params.get('id'));
  return Number.isInteger(id) && id > 0 ? { kind, id } : undefined;
}
