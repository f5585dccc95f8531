import { Lock } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useFeedback } from '../../../components/feedback.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FormField, Input, Select } from '../../../components/ui/form-field.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import {
  useCreateShareLink,
  useRevokeShareLink,
  useShareLinks,
  REVOKE_QUESTION,
  type ShareLink,
} from '../api/share-links.ts';

/** How long a new link may last, in days: 7 unless the member chooses. */
const LIFETIMES = [1, 7, 14, 30] as const;
const MIN_PASSWORD_LENGTH = 6;

/**
 * The Share tab of a document's preview: a link for someone without an account (who it is for,
 * how long it lasts, an optional password), the address to copy once it is made, and the links
 * of the document that work now, each revocable. The shared page shows the document's name, a
 * preview and Download, nothing else of the organisation.
 */
export function ShareLinksTab({ documentId }: { documentId: string }) {
  const links = useShareLinks(documentId);
  const create = useCreateShareLink();
  const revoke = useRevokeShareLink();
  const [label, setLabel] = useState('');
  const [days, setDays] = useState(7);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [made, setMade] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const { confirm } = useFeedback();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password !== '' && [...password].length < MIN_PASSWORD_LENGTH) {
      setPasswordError(`The password must be at least ${MIN_PASSWORD_LENGTH} characters long`);
      return;
    }
    setPasswordError(null);
    create.mutate(
      { documentId, days, label, password },
      {
        onSuccess: ({ url }) => {
          setMade(url);
          setCopied(false);
          setLabel('');
          setPassword('');
        },
      },
    );
  };

  const revokeLink = async (link: ShareLink) => {
    if (!link.id) return;
    if (await confirm(REVOKE_QUESTION, { confirmLabel: 'Revoke', destructive: true })) {
      revoke.mutate(link.id);
    }
  };

  const copy = async (url: string) => {
    await navigator.clipboard?.writeText(url).catch(() => undefined);
    setCopied(true);
  };

  return (
    <div className="space-y-6 p-1">
      <form onSubmit={submit} className="space-y-4" aria-label="New share link">
        <p className="text-sm text-gray-600">
          Anyone with the link can see this document’s name, preview and download it until the link
          expires or is revoked. Nothing else of your organization is shown.
        </p>
        <div className="grid gap-4 sm:grid-cols-3">
          <FormField label="Who is it for?" hint="Only your team sees this.">
            {(field) => (
              <Input
                {...field}
                value={label}
                maxLength={200}
                placeholder="Riverside Hall"
                onChange={(event) => setLabel(event.target.value)}
              />
            )}
          </FormField>
          <FormField label="Expires after">
            {(field) => (
              <Select
                {...field}
                value={days}
                onChange={(event) => setDays(Number(event.target.value))}
              >
                {LIFETIMES.map((n) => (
                  <option key={n} value={n}>
                    {n === 1 ? '1 day' : `${n} days`}
                  </option>
                ))}
              </Select>
            )}
          </FormField>
          <FormField label="Password (optional)" error={passwordError}>
            {(field) => (
              <Input
                {...field}
                type="password"
                autoComplete="new-password"
                value={password}
                onChange={(event) => setPassword(event.target.value)}
              />
            )}
          </FormField>
        </div>
        <Button type="submit" busy={create.isPending}>
          Create link
        </Button>
      </form>

      {made && (
        <div className="space-y-2 rounded-md border border-primary-200 bg-primary-50 p-3">
          <FormField label="Share this link">
            {(field) => (
              <Input {...field} readOnly value={made} onFocus={(e) => e.target.select()} />
            )}
          </FormField>
          <Button variant="secondary" size="sm" onClick={() => void copy(made)}>
            {copied ? 'Copied' : 'Copy link'}
          </Button>
        </div>
      )}

      <section aria-label="Active share links" className="space-y-2">
        <h3 className="text-sm font-semibold text-gray-900">Active links</h3>
        {links.isPending && <Spinner label="Loading share links..." />}
        {links.isError && (
          <p className="text-sm text-destructive-700">{errorMessage(links.error)}</p>
        )}
        {links.data?.length === 0 && (
          <p className="text-sm text-gray-600">No links to this document work now.</p>
        )}
        <ul className="divide-y divide-gray-200">
          {links.data?.map((link) => (
            <li key={link.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div className="min-w-0 text-sm">
                <p className="font-medium break-words text-gray-900">
                  {link.label ?? 'Share link'}
                  {link.password_protected && (
                    <Lock className="ml-1 inline h-3.5 w-3.5" aria-label="Password" />
                  )}
                </p>
                <p className="text-gray-600">
                  Made by {link.created_by_name ?? 'a former member'} · expires{' '}
                  {formatDateTime(link.expires_at)} · opened {link.opened_count ?? 0}{' '}
                  {link.opened_count === 1 ? 'time' : 'times'}
                </p>
              </div>
              <Button
                variant="destructive-outline"
                size="sm"
                onClick={() => void revokeLink(link)}
                aria-label={`Revoke ${link.label ?? 'share link'}`}
              >
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
