import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';

// The dialog (and the modal under it) is not on the dashboard's path, which is at its budget
// (tests/build/bundle-budget.test.ts): it is fetched once the app has shown, before anyone asks.
const loadConfirmDialog = () => import('./ui/confirm-dialog.tsx');
const ConfirmDialog = lazy(async () => ({ default: (await loadConfirmDialog()).ConfirmDialog }));

/** How a confirmation names its choices (see `ConfirmDialog`). */
export interface ConfirmOptions {
  /** The action, e.g. "Delete". */
  confirmLabel: string;
  cancelLabel?: string;
  destructive?: boolean;
  title?: string;
}

interface Pending {
  message: string;
  options: ConfirmOptions;
  resolve: (confirmed: boolean) => void;
}

interface Feedback {
  /**
   * In-app replacement for `window.confirm`: resolves true when the action is confirmed, false
   * for Cancel, Escape or closing. The safe choice has the focus. A dialog is only ever a
   * question: what needs no decision is a notice (`useToast`), never a dialog.
   */
  confirm(message: string, options: ConfirmOptions): Promise<boolean>;
}

const FeedbackContext = createContext<Feedback | null>(null);

/**
 * Accessible confirmations with the specification's exact words, one at a time, instead of
 * the browser's blocking `confirm`.
 */
export function FeedbackProvider({ children }: { children: ReactNode }) {
  const [queue, setQueue] = useState<Pending[]>([]);
  useEffect(() => {
    void loadConfirmDialog();
  }, []);

  const confirm = useCallback(
    (message: string, options: ConfirmOptions) =>
      new Promise<boolean>((resolve) =>
        setQueue((items) => [...items, { message, options, resolve }]),
      ),
    [],
  );
  const value = useMemo<Feedback>(() => ({ confirm }), [confirm]);

  const current = queue[0];
  const settle = (confirmed: boolean) => {
    current?.resolve(confirmed);
    setQueue((items) => items.slice(1));
  };
  const key = queue.length + (current?.message ?? '');

  return (
    <FeedbackContext.Provider value={value}>
      {children}
      {current && (
        <Suspense fallback={null}>
          <ConfirmDialog
            key={key}
            title={current.options.title}
            message={current.message}
            confirmLabel={current.options.confirmLabel}
            cancelLabel={current.options.cancelLabel}
            destructive={current.options.destructive}
            onConfirm={() => settle(true)}
            onCancel={() => settle(false)}
          />
        </Suspense>
      )}
    </FeedbackContext.Provider>
  );
}

export function useFeedback(): Feedback {
  const value = useContext(FeedbackContext);
  if (!value) throw new Error('useFeedback must be used inside <FeedbackProvider>');
  return value;
}
