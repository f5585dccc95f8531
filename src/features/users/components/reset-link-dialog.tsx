import { Button } from '../../../components/ui/button.tsx';
import { DialogActions } from '../../../components/ui/dialog-actions.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import type { ResetLink } from '../api/make-reset-link.ts';
import { InvitationLink } from './invitation-link.tsx';

/** A member's one-time reset link, to copy and pass on (shown once). */
export function ResetLinkDialog({ reset, onClose }: { reset: ResetLink; onClose: () => void }) {
  return (
    <Modal title="Reset link" onClose={onClose}>
      <div className="space-y-4 text-sm text-gray-700">
        <p>
          Give this link to <strong>{reset.email}</strong> yourself (in person, by phone or by
          message): it opens Steward to set a new password. It works once, for one hour. It was not
          e-mailed.
        </p>
        <InvitationLink link={reset.link} label="Reset link" />
        <DialogActions className="">
          <Button onClick={onClose}>Done</Button>
        </DialogActions>
      </div>
    </Modal>
  );
}
