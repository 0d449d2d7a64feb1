export function TasksPage() {
  return null;
}
