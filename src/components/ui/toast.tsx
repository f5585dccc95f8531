import { AlertTriangle, CheckCircle2, Info, X, type LucideIcon } from 'lucide-react';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { createPortal } from 'react-dom';

/** How long a notice stays, unless the pointer or the focus rests on it. */
export const TOAST_DURATION_MS = 6000;

/**
 * What a notice reports: something done (`success`, the default), something to know (`info`),
 * or an action that failed (`error`: the one handler of failed mutations, `lib/query-client.ts`).
 */
export type ToastTone = 'success' | 'info' | 'error';

interface Notice {
  id: number;
  message: string;
  tone: ToastTone;
}

type ShowToast = (message: string, tone?: ToastTone) => void;

const LOOKS: Record<ToastTone, { icon: LucideIcon; dataTone: string }> = {
  success: { icon: CheckCircle2, dataTone: 'success' },
  info: { icon: Info, dataTone: 'info' },
  error: { icon: AlertTriangle, dataTone: 'danger' },
};

const ToastContext = createContext<ShowToast | null>(null);

function ToastItem({ notice, onDismiss }: { notice: Notice; onDismiss: (id: number) => void }) {
  // Reading a notice (pointer over it, or the focus on its button) keeps it on screen.
  const [held, setHeld] = useState(false);
  // A failure stays until it is dismissed: the person must be able to read why, at their pace.
  const lasting = notice.tone === 'error';
  useEffect(() => {
    if (held || lasting) return;
    const timer = setTimeout(() => onDismiss(notice.id), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [held, lasting, notice.id, onDismiss]);
  const { icon: Icon, dataTone } = LOOKS[notice.tone];

  return (
    <div
      data-tone={dataTone}
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
      className="pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border border-tone-200 bg-white p-3 shadow-lg"
    >
      <Icon className="mt-0.5 h-5 w-5 shrink-0 text-tone-600" aria-hidden="true" />
      <p className="min-w-0 flex-1 text-sm break-words text-gray-900">{notice.message}</p>
      <button
        type="button"
        onClick={() => onDismiss(notice.id)}
        aria-label="Dismiss notification"
        className="shrink-0 rounded-md p-0.5 text-gray-500 hover:bg-gray-100 hover:text-gray-800 focus-visible:outline-2 focus-visible:outline-primary-600"
      >
        <X className="h-4 w-4" aria-hidden="true" />
      </button>
    </div>
  );
}

/**
 * Notices that need no decision ("Email sent successfully!", "Failed to delete document: …"):
 * shown at the bottom right of the screen (on a phone at the top, where they cannot cover a
 * dialog's buttons, which sit at the bottom there), each with a Dismiss button, without taking
 * the focus; a success or information for a few seconds, a failure until it is dismissed.
 *
 * The notices sit in one live region that is always on the page, so screen readers announce
 * each one as it is added. It is a `log` (polite: new entries are read in order, old ones may
 * go), not a `status`: the pages keep their own status lines ("3 documents"), and a second,
 * permanent status region would make those ambiguous.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const nextId = useRef(0);

  const dismiss = useCallback((id: number) => {
    setNotices((current) => current.filter((notice) => notice.id !== id));
  }, []);
  const show = useCallback<ShowToast>((message, tone = 'success') => {
    nextId.current += 1;
    const id = nextId.current;
    setNotices((current) => [...current, { id, message, tone }]);
  }, []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      {createPortal(
        <div
          role="log"
          aria-live="polite"
          aria-label="Notifications"
          className="pointer-events-none fixed inset-x-0 top-0 z-[60] flex flex-col items-center gap-2 p-4 sm:top-auto sm:bottom-0 sm:items-end"
        >
          {notices.map((notice) => (
            <ToastItem key={notice.id} notice={notice} onDismiss={dismiss} />
          ))}
        </div>,
        document.body,
      )}
    </ToastContext.Provider>
  );
}

/** Shows a notice: `toast('Email sent successfully!')`, `toast(TEAM_MANAGED_BY_ADMINS, 'info')`. */
export function useToast(): ShowToast {
  const value = useContext(ToastContext);
  if (!value) throw new Error('useToast must be used inside <ToastProvider>');
  return value;
}
