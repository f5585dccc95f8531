/**
 * The key that encrypts organisations' SMTP passwords: `ORGANIZATION_MAIL_KEY` (256 bits,
 * base64url), set with `supabase secrets set` on a hosted project; in local mode generated and
 * kept as the function secret `organization-mail-server` (supabase/functions/README.md), which
 * the embedded delivery job reads too.
 */
export const ORGANIZATION_MAIL_KEY = 'ORGANIZATION_MAIL_KEY';
export const ORGANIZATION_MAIL_SECRET = 'organization-mail-server';

/**
 * What each ciphertext is bound to (AES-GCM additional data): a password copied to another
 * organisation's row fails to decrypt instead of being sent with that organisation's mail.
 */
export function organizationPasswordContext(organizationId: string): string {
  return `organization_mail_servers:${organizationId}:password`;
}
