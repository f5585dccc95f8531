/** Placeholder until this page is built. */
export function DashboardPage() {
  return <h1>Dashboard</h1>;
}
