export function LinkedPage() {
  return null;
}
