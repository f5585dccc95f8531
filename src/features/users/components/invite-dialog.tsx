import { CheckCircle2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { DialogActions } from '../../../components/ui/dialog-actions.tsx';
import { FormField, Input, Select } from '../../../components/ui/form-field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useLeaveGuard } from '../../../components/ui/use-leave-guard.ts';
import type { InvitableRole } from '../api/invite-user.ts';
import { formatDate } from '../../../lib/format.ts';
import type { PendingInvitation } from '../api/list-pending-invitations.ts';
import { useInvite } from '../hooks/use-invite.ts';
import { InvitationLink } from './invitation-link.tsx';

export const UNSENT_INVITATION_QUESTION =
  'Your invitation has not been sent. If you leave this page, what you typed will be lost.';

export interface InviteDialogProps {
  organizationName: string;
  /** The organisation's pending invitations: inviting one of them again replaces its link. */
  pendingInvitations: readonly PendingInvitation[];
  onClose: () => void;
}

/** The pending invitation of `email`, compared as the server does (trimmed, lower-cased). */
function pendingFor(email: string, invitations: readonly PendingInvitation[]) {
  const wanted = email.trim().toLowerCase();
  return wanted
    ? invitations.find((invitation) => invitation.email.toLowerCase() === wanted)
    : undefined;
}

/**
 * The invite dialog (spec §2): the form, then the sent view with the shareable link. The page
 * mounts it only while open, so closing it always starts the next invitation from a clean form.
 * An address that already has a pending invitation is pointed out before it is sent again:
 * the new link replaces the one sent earlier, which stops working.
 */
/** The sent view's heading when e-mail is kept in the Outbox. */
export const INVITATION_NOT_EMAILED = 'Invitation created. It was not e-mailed.';

export function InviteDialog({ organizationName, pendingInvitations, onClose }: InviteDialogProps) {
  const { sending, sent, send } = useInvite();
  const [email, setEmail] = useState('');
  const [fullName, setFullName] = useState('');
  const [byEmail, setByEmail] = useState(true);
  const pending = pendingFor(email, pendingInvitations);
  useLeaveGuard(!sent && Boolean(email.trim() || fullName.trim()), UNSENT_INVITATION_QUESTION);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const chosen = new FormData(event.currentTarget).get('role');
    const role: InvitableRole = chosen === 'admin' || chosen === 'viewer' ? chosen : 'user';
    send({ email: email.trim(), role, fullName: fullName.trim() || null, byEmail });
  };

  return (
    <Modal title="Invite User" onClose={onClose} dismissible={!sending}>
      {sent ? (
        <div className="space-y-4">
          <div
            data-tone="success"
            className="flex items-start gap-3 rounded-md border border-tone-200 bg-tone-50 p-3"
          >
            <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0 text-tone-600" aria-hidden="true" />
            <div className="text-sm text-tone-800">
              <p role="status" className="font-medium">
                {/* With no SMTP nothing was sent: the dialog does not say so (issue 24). */}
                {sent.mailStatus === 'outbox'
                  ? INVITATION_NOT_EMAILED
                  : 'Invitation sent successfully!'}
              </p>
              <p className="mt-1">
                Share this link with <strong>{sent.email}</strong> so they can join{' '}
                {organizationName}.
              </p>
              {sent.mailStatus === 'queued' && (
                <p className="mt-1">The invitation is also being e-mailed to them.</p>
              )}
              {sent.mailStatus === 'outbox' && (
                <p className="mt-1">
                  E-mail is not set up on this installation: the invitation e-mail is kept in the
                  Outbox and was not sent. Copy the link and send it to them yourself.
                </p>
              )}
              {sent.mailStatus === 'recently_sent' && (
                <p className="mt-1">
                  An invitation was e-mailed to them a short while ago, so it was not e-mailed
                  again, and the link in that e-mail no longer works. Share this new link yourself.
                </p>
              )}
            </div>
          </div>
          <InvitationLink link={sent.link} />
          <p className="text-xs text-gray-500">
            For security the link is shown only this once. If it gets lost, invite the same e-mail
            again to get a new link.
          </p>
          <DialogActions className="">
            <Button onClick={onClose}>Done</Button>
          </DialogActions>
        </div>
      ) : (
        <form onSubmit={onSubmit} className="space-y-4">
          <p data-tone="info" className="rounded-md bg-tone-50 px-3 py-2 text-sm text-tone-900">
            The invited user will join <strong>{organizationName}</strong>.
          </p>
          <FormField label="Email address">
            {(field) => (
              <Input
                {...field}
                name="email"
                type="email"
                required
                autoComplete="off"
                value={email}
                onChange={(event) => setEmail(event.target.value)}
              />
            )}
          </FormField>
          <div aria-live="polite">
            {pending && (
              <p
                data-tone="warning"
                className="rounded-md border border-tone-200 bg-tone-50 px-3 py-2 text-sm text-tone-900"
              >
                {pending.email} already has a pending invitation, sent{' '}
                {formatDate(pending.created_at)}. Sending a new one replaces it: the link sent
                earlier will stop working.
              </p>
            )}
          </div>
          <FormField label="Full name (optional)">
            {(field) => (
              <Input
                {...field}
                name="fullName"
                maxLength={200}
                value={fullName}
                onChange={(event) => setFullName(event.target.value)}
              />
            )}
          </FormField>
          <FormField
            label="Role"
            hint="Users can view and manage documents. Admins can also invite and manage other users. Viewers can only view and download documents."
          >
            {(field) => (
              <Select {...field} name="role" defaultValue="user">
                <option value="user">User</option>
                <option value="admin">Admin</option>
                <option value="viewer">Viewer</option>
              </Select>
            )}
          </FormField>
          <Checkbox
            checked={byEmail}
            onChange={(event) => setByEmail(event.target.checked)}
            label="Send invitation by e-mail"
          />
          <DialogActions className="pt-2">
            <Button variant="secondary" onClick={onClose} disabled={sending}>
              Cancel
            </Button>
            <Button type="submit" busy={sending} busyLabel="Sending...">
              Send Invitation
            </Button>
          </DialogActions>
        </form>
      )}
    </Modal>
  );
}
