import {
  createContext,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { Modal } from './modal.tsx';
import { Button } from './ui/button.tsx';
import { ConfirmDialog } from './ui/confirm-dialog.tsx';

/** How a confirmation names its choices (see `ConfirmDialog`). */
export interface ConfirmOptions {
  /** The action, e.g. "Delete". Callers not yet converted get the old "OK". */
  confirmLabel?: string;
  cancelLabel?: string;
  destructive?: boolean;
  title?: string;
}

type Request =
  | { kind: 'alert'; message: string }
  | { kind: 'confirm'; message: string; options: ConfirmOptions };
type Pending = Request & { resolve: (confirmed: boolean) => void };

interface Feedback {
  /** In-app replacement for `window.alert`: resolves when dismissed. */
  alert(message: string): Promise<void>;
  /**
   * In-app replacement for `window.confirm`: resolves true when the action is confirmed, false
   * for Cancel, Escape or closing. The safe choice has the focus.
   */
  confirm(message: string, options?: ConfirmOptions): Promise<boolean>;
}

const FeedbackContext = createContext<Feedback | null>(null);

function AlertDialog({ message, onClose }: { message: string; onClose: () => void }) {
  const okRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal title="Notice" onClose={onClose} size="sm" initialFocus={okRef}>
      <p role="alert" className="text-sm text-gray-700">
        {message}
      </p>
      <div className="mt-6 flex justify-end">
        <Button ref={okRef} onClick={onClose}>
          OK
        </Button>
      </div>
    </Modal>
  );
}

/**
 * Accessible alerts and confirmations with the specification's exact words, one at a time,
 * instead of the browser's blocking `alert`/`confirm`.
 */
export function FeedbackProvider({ children }: { children: ReactNode }) {
  const [queue, setQueue] = useState<Pending[]>([]);

  const push = useCallback(
    (request: Request) =>
      new Promise<boolean>((resolve) => setQueue((items) => [...items, { ...request, resolve }])),
    [],
  );
  const value = useMemo<Feedback>(
    () => ({
      alert: async (message) => {
        await push({ kind: 'alert', message });
      },
      confirm: (message, options = {}) => push({ kind: 'confirm', message, options }),
    }),
    [push],
  );

  const current = queue[0];
  const settle = (confirmed: boolean) => {
    current?.resolve(confirmed);
    setQueue((items) => items.slice(1));
  };
  const key = queue.length + (current?.message ?? '');

  return (
    <FeedbackContext.Provider value={value}>
      {children}
      {current?.kind === 'alert' && (
        <AlertDialog key={key} message={current.message} onClose={() => settle(false)} />
      )}
      {current?.kind === 'confirm' && (
        <ConfirmDialog
          key={key}
          title={current.options.title}
          message={current.message}
          confirmLabel={current.options.confirmLabel ?? 'OK'}
          cancelLabel={current.options.cancelLabel}
          destructive={current.options.destructive}
          onConfirm={() => settle(true)}
          onCancel={() => settle(false)}
        />
      )}
    </FeedbackContext.Provider>
  );
}

export function useFeedback(): Feedback {
  const value = useContext(FeedbackContext);
  if (!value) throw new Error('useFeedback must be used inside <FeedbackProvider>');
  return value;
}
