import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address, or undefined when it is not one. */
function groupsOf(address: string): number[] | undefined {
  if (!isIPv6(address)) return undefined;
  const [head = '', tail] = address.split('::');
  const part = (text: string) => (text === '' ? [] : text.split(':'));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  // An embedded IPv4 tail ("::ffff:10.0.0.1") is two groups.
  const expand = (list: string[]) =>
    list.flatMap((g) => {
      if (!isIPv4(g)) return [Number.parseInt(g, 16)];
      const [a = 0, b = 0, c = 0, d = 0] = g.split('.').map(Number);
      return [a * 256 + b, c * 256 + d];
    });
  const l = expand(left);
  const r = expand(right);
  const fill = tail === undefined ? [] : new Array(8 - l.length - r.length).fill(0);
  return [...l, ...fill, ...r];
}

/**
 * The key two addresses are compared by (docs/decisions/fraud-signals.md): an IPv4 address as it is
 * (also when written IPv4-mapped, `::ffff:a.b.c.d`); an IPv6 address by its /64 network, the part
 * one household or phone keeps while its interface id rotates. Anything else is kept as given.
 */
export function addressKey(ip: string): string {
  const address = ip.trim().toLowerCase();
  if (isIPv4(address)) return address;
  const groups = groupsOf(address);
  if (groups?.length !== 8) return address;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
