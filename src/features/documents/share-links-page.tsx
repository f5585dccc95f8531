import { useFeedback } from '../../components/feedback.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { formatDateTime } from '../../lib/format.ts';
import { isAdminRole } from '../../lib/roles.ts';
import { useSession } from '../../lib/session.tsx';
import {
  REVOKE_QUESTION,
  useRevokeShareLink,
  useShareLinks,
  type ShareLink,
} from './api/share-links.ts';

/**
 * Admins' list (under the document requests, `/requests`): every share link of the organisation that works now, whose
 * document, made by whom, for whom, until when, how often opened; each revocable.
 */
export function ShareLinksPage() {
  const { profile, profileLoading } = useSession();
  if (profileLoading) return <Spinner />;
  if (!isAdminRole(profile?.role)) {
    return (
      <p className="text-sm text-gray-600">
        Access Restricted: You need admin privileges to see every share link.
      </p>
    );
  }
  return <OrganizationShareLinks />;
}

function OrganizationShareLinks() {
  const links = useShareLinks(null);
  const revoke = useRevokeShareLink();
  const { confirm } = useFeedback();
  const revokeLink = async (link: ShareLink) => {
    if (!link.id) return;
    if (await confirm(REVOKE_QUESTION, { confirmLabel: 'Revoke', destructive: true })) {
      revoke.mutate(link.id);
    }
  };
  return (
    <section aria-label="Share links" className="space-y-6">
      <div>
        <h2 className="text-xl font-semibold text-gray-900">Share links</h2>
        <p className="text-sm text-gray-600">
          Links to documents that people without an account can open now.
        </p>
      </div>
      {links.isPending && <Spinner label="Loading share links..." />}
      {links.isError && (
        <p role="alert" className="text-sm text-destructive-700">
          {errorMessage(links.error)}
        </p>
      )}
      {links.data?.length === 0 && (
        <p className="text-sm text-gray-600">No share links work now.</p>
      )}
      {links.data && links.data.length > 0 && (
        <ul
          aria-label="Share links"
          className="divide-y divide-gray-200 rounded-lg border bg-white"
        >
          {links.data.map((link) => (
            <li key={link.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
              <div className="min-w-0 text-sm">
                <p className="font-medium break-words text-gray-900">{link.document_name}</p>
                <p className="text-gray-600">
                  {link.label ? `For ${link.label} · ` : ''}made by{' '}
                  {link.created_by_name ?? 'a former member'} · expires{' '}
                  {formatDateTime(link.expires_at)}
                  {link.password_protected ? ' · password' : ''} · opened {link.opened_count ?? 0}{' '}
                  {link.opened_count === 1 ? 'time' : 'times'}
                </p>
              </div>
              <Button
                variant="destructive-outline"
                size="sm"
                aria-label={`Revoke the link to ${link.document_name ?? 'the document'}`}
                onClick={() => void revokeLink(link)}
              >
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
