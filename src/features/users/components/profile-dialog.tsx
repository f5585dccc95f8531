import { useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { DialogActions } from '../../../components/ui/dialog-actions.tsx';
import { FormField, Input } from '../../../components/ui/form-field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { useLeaveGuard } from '../../../components/ui/use-leave-guard.ts';
import { useUpdateOwnName } from '../api/update-own-name.ts';
import { AccountSecurity } from './account-security.tsx';

export const PROFILE_SAVED = 'Your profile has been saved.';
export const UNSAVED_PROFILE_QUESTION =
  'You have changed your name without saving it. Leave without saving?';

export interface ProfileDialogProps {
  fullName: string | null;
  email: string;
  onClose: () => void;
  /** More of the account, shown last (the two-factor settings, from their own feature). */
  children?: ReactNode;
}

/**
 * The signed-in member's own profile: their full name, shown in the navigation bar and to the
 * rest of the organisation instead of their e-mail (blank clears it); then their password,
 * e-mail address and other sessions.
 */
export function ProfileDialog({ fullName, email, onClose, children }: ProfileDialogProps) {
  const [name, setName] = useState(fullName ?? '');
  const save = useUpdateOwnName();
  const toast = useToast();
  useLeaveGuard(name !== (fullName ?? '') && !save.isSuccess, UNSAVED_PROFILE_QUESTION);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(name, {
      onSuccess: () => {
        toast(PROFILE_SAVED);
        onClose();
      },
    });
  };

  return (
    <Modal title="Your profile" onClose={onClose} dismissible={!save.isPending}>
      <form onSubmit={onSubmit} className="space-y-4">
        <FormField
          label="Full name"
          hint="Shown to the members of your organization instead of your e-mail address."
        >
          {(field) => (
            <Input
              {...field}
              value={name}
              onChange={(event) => setName(event.target.value)}
              maxLength={200}
              autoComplete="name"
            />
          )}
        </FormField>
        <dl className="text-sm">
          <dt className="font-medium text-gray-700">Email address</dt>
          <dd className="mt-1 wrap-anywhere text-gray-900">{email}</dd>
        </dl>
        <DialogActions className="pt-2">
          <Button variant="secondary" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" busy={save.isPending} busyLabel="Saving...">
            Save
          </Button>
        </DialogActions>
      </form>
      <div className="mt-6">
        <AccountSecurity email={email} />
      </div>
      {children && <div className="mt-6">{children}</div>}
    </Modal>
  );
}
