import { CheckCircle2 } from 'lucide-react';
import { useId, type FormEvent } from 'react';
import { Modal } from '../../../components/modal.tsx';
import type { InvitableRole } from '../../../lib/database.types.ts';
import { useInvite } from '../hooks/use-invite.ts';
import { InvitationLink } from './invitation-link.tsx';

export interface InviteDialogProps {
  organizationName: string;
  onClose: () => void;
  /** Called after an invitation was created, so the pending list can refresh behind the dialog. */
  onInvited: () => void;
}

const fieldClass =
  'mt-1 block w-full rounded-md border border-gray-300 px-3 py-2 text-sm shadow-sm focus:border-blue-500 focus:ring-2 focus:ring-blue-500/30 focus:outline-none';

/**
 * The invite dialog (spec §2): the form, then the sent view with the shareable link. The page
 * mounts it only while open, so closing it always starts the next invitation from a clean form.
 */
export function InviteDialog({ organizationName, onClose, onInvited }: InviteDialogProps) {
  const { sending, sent, send } = useInvite(onInvited);
  const emailId = useId();
  const nameId = useId();
  const roleId = useId();
  const roleHelpId = useId();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const fullName = String(form.get('fullName') ?? '').trim();
    const role: InvitableRole = form.get('role') === 'admin' ? 'admin' : 'user';
    void send({ email: String(form.get('email') ?? '').trim(), role, fullName: fullName || null });
  };

  return (
    <Modal title="Invite User" onClose={onClose} dismissible={!sending}>
      {sent ? (
        <div className="space-y-4">
          <div className="flex items-start gap-3 rounded-md border border-green-200 bg-green-50 p-3">
            <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0 text-green-600" aria-hidden="true" />
            <div>
              <p role="status" className="text-sm font-medium text-green-800">
                Invitation sent successfully!
              </p>
              <p className="mt-1 text-sm text-green-800">
                Share this link with <strong>{sent.email}</strong> so they can join{' '}
                {organizationName}.
              </p>
            </div>
          </div>
          <InvitationLink link={sent.link} />
          <p className="text-xs text-gray-500">
            For security the link is shown only this once. If it gets lost, invite the same e-mail
            again to get a new link.
          </p>
          <div className="flex justify-end">
            <button
              type="button"
              onClick={onClose}
              className="rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700"
            >
              Done
            </button>
          </div>
        </div>
      ) : (
        <form onSubmit={onSubmit} className="space-y-4">
          <p className="rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-900">
            The invited user will join <strong>{organizationName}</strong>.
          </p>
          <div>
            <label htmlFor={emailId} className="block text-sm font-medium text-gray-700">
              Email address
            </label>
            <input
              id={emailId}
              name="email"
              type="email"
              required
              autoComplete="off"
              className={fieldClass}
            />
          </div>
          <div>
            <label htmlFor={nameId} className="block text-sm font-medium text-gray-700">
              Full name (optional)
            </label>
            <input id={nameId} name="fullName" maxLength={200} className={fieldClass} />
          </div>
          <div>
            <label htmlFor={roleId} className="block text-sm font-medium text-gray-700">
              Role
            </label>
            <select
              id={roleId}
              name="role"
              defaultValue="user"
              aria-describedby={roleHelpId}
              className={fieldClass}
            >
              <option value="user">User</option>
              <option value="admin">Admin</option>
            </select>
            <p id={roleHelpId} className="mt-1 text-xs text-gray-500">
              Users can view and manage documents. Admins can also invite and manage other users.
            </p>
          </div>
          <div className="flex justify-end gap-2 pt-2">
            <button
              type="button"
              onClick={onClose}
              disabled={sending}
              className="rounded-md border border-gray-300 px-4 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50 disabled:opacity-60"
            >
              Cancel
            </button>
            <button
              type="submit"
              disabled={sending}
              className="rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 disabled:cursor-not-allowed disabled:opacity-60"
            >
              {sending ? 'Sending...' : 'Send Invitation'}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
