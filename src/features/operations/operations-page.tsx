/** Placeholder until this page is built. */
export function OperationsPage() {
  return <h1>Operations</h1>;
}
