/** Placeholder until this page is built. */
export function OAuthCallbackPage() {
  return <h1>Callback</h1>;
}
