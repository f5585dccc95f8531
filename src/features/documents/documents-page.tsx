/** Placeholder until this page is built. */
export function DocumentsPage() {
  return <h1>Documents</h1>;
}
