/** Placeholder until this page is built. */
export function IntegrationCategoryPage() {
  return <h1>Category</h1>;
}
