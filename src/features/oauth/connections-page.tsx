/** Placeholder until this page is built. */
export function ConnectionsPage() {
  return <h1>Connections</h1>;
}
