import { ShieldCheck } from 'lucide-react';

/** The About OAuth Security note (spec §2). */
export function OAuthSecurityNote() {
  return (
    <section
      aria-labelledby="oauth-security-heading"
      data-tone="info"
      className="mt-8 flex gap-3 rounded-lg border border-tone-200 bg-tone-50 p-4"
    >
      <ShieldCheck className="h-6 w-6 shrink-0 text-tone-700" aria-hidden="true" />
      <div className="text-sm text-tone-900">
        <h2 id="oauth-security-heading" className="font-semibold">
          About OAuth Security
        </h2>
        <p className="mt-1">
          Connections use OAuth, so your passwords for these services are never shared with us.
          Access tokens are refreshed automatically, and you can revoke access at any time by
          disconnecting. App secrets and refresh tokens are kept encrypted on the server and are
          never sent to your browser.
        </p>
      </div>
    </section>
  );
}
