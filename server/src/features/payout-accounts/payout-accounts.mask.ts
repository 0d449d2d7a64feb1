import type { PayoutAccountType } from '@kamai/contract';

/** Bank: "••••3456" (last 4 digits only). UPI: "as•••@okaxis" (first 2 characters and the handle). */
export function maskAccountNo(type: PayoutAccountType, accountNo: string): string {
  if (type === 'bank') return `••••${accountNo.slice(-4)}`;
  const at = accountNo.lastIndexOf('@');
  if (at < 0) return `${accountNo.slice(0, 2)}•••`;
  return `${accountNo.slice(0, Math.min(2, at))}•••${accountNo.slice(at)}`;
}
