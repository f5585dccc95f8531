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

interface Pending {
  kind: 'alert' | 'confirm';
  message: string;
  resolve: (confirmed: boolean) => void;
}

interface Feedback {
  /** In-app replacement for `window.alert`: resolves when dismissed. */
  alert(message: string): Promise<void>;
  /** In-app replacement for `window.confirm`: resolves true for OK, false for Cancel. */
  confirm(message: string): Promise<boolean>;
}

const FeedbackContext = createContext<Feedback | null>(null);

/**
 * Accessible alerts and confirmations with the specification's exact words, one at a time,
 * instead of the browser's blocking `alert`/`confirm`.
 */
export function FeedbackProvider({ children }: { children: ReactNode }) {
  const [queue, setQueue] = useState<Pending[]>([]);
  const okRef = useRef<HTMLButtonElement>(null);

  const push = useCallback(
    (kind: Pending['kind'], message: string) =>
      new Promise<boolean>((resolve) =>
        setQueue((items) => [...items, { kind, message, resolve }]),
      ),
    [],
  );
  const value = useMemo<Feedback>(
    () => ({
      alert: async (message) => {
        await push('alert', message);
      },
      confirm: (message) => push('confirm', message),
    }),
    [push],
  );

  const current = queue[0];
  const settle = (confirmed: boolean) => {
    current?.resolve(confirmed);
    setQueue((items) => items.slice(1));
  };

  return (
    <FeedbackContext.Provider value={value}>
      {children}
      {current && (
        <Modal
          key={queue.length + current.message}
          title={current.kind === 'confirm' ? 'Please confirm' : 'Notice'}
          onClose={() => settle(false)}
          size="sm"
          initialFocus={okRef}
        >
          <p
            role={current.kind === 'alert' ? 'alert' : undefined}
            className="text-sm text-gray-700"
          >
            {current.message}
          </p>
          <div className="mt-6 flex justify-end gap-2">
            {current.kind === 'confirm' && (
              <button
                type="button"
                onClick={() => settle(false)}
                className="rounded-md border border-gray-300 px-4 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50"
              >
                Cancel
              </button>
            )}
            <button
              ref={okRef}
              type="button"
              onClick={() => settle(true)}
              className="rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700"
            >
              OK
            </button>
          </div>
        </Modal>
      )}
    </FeedbackContext.Provider>
  );
}

export function useFeedback(): Feedback {
  const value = useContext(FeedbackContext);
  if (!value) throw new Error('useFeedback must be used inside <FeedbackProvider>');
  return value;
}
