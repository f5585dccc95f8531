/** Placeholder until this page is built. */
export function UsersPage() {
  return <h1>Users</h1>;
}
