import { useRef, type ReactNode } from 'react';
import { Modal } from './modal.tsx';
import { Button } from './button.tsx';
import { DialogActions } from './dialog-actions.tsx';

export interface ConfirmDialogProps {
  /** The dialog's name; "Please confirm" unless the question needs another. */
  title?: string;
  /** The specification's question, e.g. `Are you sure you want to delete "Budget.pdf"?`. */
  message: ReactNode;
  /** The action the confirming button carries out: "Delete", "Deactivate", "Disconnect"… */
  confirmLabel: string;
  /** The safe choice; "Cancel" unless that word would be ambiguous ("Keep invitation"). */
  cancelLabel?: string;
  /** Styles the confirming button as destructive (deleting, deactivating, discarding). */
  destructive?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * Asks before an action: the question, the safe choice and a button that names the action.
 * The safe choice has the focus when the dialog opens, so Enter (or Escape) never confirms a
 * deletion by accident; confirming takes a deliberate Tab or click.
 */
export function ConfirmDialog({
  title = 'Please confirm',
  message,
  confirmLabel,
  cancelLabel = 'Cancel',
  destructive = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal title={title} onClose={onCancel} size="sm" initialFocus={cancelRef}>
      <p className="text-sm text-gray-700">{message}</p>
      <DialogActions>
        <Button ref={cancelRef} variant="secondary" onClick={onCancel}>
          {cancelLabel}
        </Button>
        <Button variant={destructive ? 'destructive' : 'primary'} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Modal>
  );
}
