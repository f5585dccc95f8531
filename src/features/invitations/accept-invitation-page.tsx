/** Placeholder until this page is built. */
export function AcceptInvitationPage() {
  return <h1>Invitation</h1>;
}
