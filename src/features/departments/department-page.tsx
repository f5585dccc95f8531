/** Placeholder until this page is built. */
export function DepartmentPage() {
  return <h1>Department</h1>;
}
