export function NoticesPage() {
  return null;
}
