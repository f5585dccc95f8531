import { X } from 'lucide-react';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Button } from './button.tsx';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), iframe, [tabindex]:not([tabindex="-1"])';

export interface ModalProps {
  /** Shown in the header and used as the dialog's accessible name. */
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  /** Extra header content (e.g. action buttons) placed before the close button. */
  headerActions?: ReactNode;
  /** Tailwind max-width class of the panel. */
  size?: 'sm' | 'md' | 'lg' | 'xl' | 'full';
  /** Accessible label of the close button. */
  closeLabel?: string;
  /** Element to focus first; defaults to the first focusable element in the body. */
  initialFocus?: React.RefObject<HTMLElement | null>;
  /** When false, Escape and the backdrop do not close (e.g. while saving). */
  dismissible?: boolean;
}

/** Open modals, innermost last: only the innermost one answers Escape and traps Tab. */
const openModals: symbol[] = [];

const sizes = {
  sm: 'max-w-sm',
  md: 'max-w-md',
  lg: 'max-w-2xl',
  xl: 'max-w-4xl',
  // A viewer's frame: its height does not follow what loads inside it, so that the header's
  // buttons stay where they were when the preview arrives (a click aimed at one while the
  // preview loaded landed in the preview instead).
  full: 'max-w-6xl h-[100dvh] sm:h-[90vh]',
};

/**
 * The one modal dialog of the app: rendered over the page, focus kept inside while open
 * (Tab wraps), Escape closes, and focus returns to where it was when it closes.
 */
export function Modal({
  title,
  onClose,
  children,
  headerActions,
  size = 'md',
  closeLabel = 'Close',
  initialFocus,
  dismissible = true,
}: ModalProps) {
  const panelRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const onCloseRef = useRef(onClose);
  const dismissibleRef = useRef(dismissible);
  useEffect(() => {
    onCloseRef.current = onClose;
    dismissibleRef.current = dismissible;
  });

  useEffect(() => {
    const self = Symbol('modal');
    openModals.push(self);
    const previouslyFocused = document.activeElement as HTMLElement | null;
    const panel = panelRef.current;
    const first =
      initialFocus?.current ??
      panel?.querySelector<HTMLElement>('[data-autofocus]') ??
      panel?.querySelector<HTMLElement>(`[data-modal-body] :is(${FOCUSABLE})`) ??
      panel;
    first?.focus();

    function onKeyDown(event: KeyboardEvent) {
      if (openModals[openModals.length - 1] !== self) return;
      if (event.key === 'Escape' && dismissibleRef.current) {
        event.stopPropagation();
        onCloseRef.current();
        return;
      }
      if (event.key !== 'Tab' || !panel) return;
      const focusable = Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
        (element) => !element.hasAttribute('inert'),
      );
      if (focusable.length === 0) {
        event.preventDefault();
        return;
      }
      const firstItem = focusable[0]!;
      const lastItem = focusable[focusable.length - 1]!;
      if (
        event.shiftKey &&
        (document.activeElement === firstItem || document.activeElement === panel)
      ) {
        event.preventDefault();
        lastItem.focus();
      } else if (!event.shiftKey && document.activeElement === lastItem) {
        event.preventDefault();
        firstItem.focus();
      }
    }
    document.addEventListener('keydown', onKeyDown, true);
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      openModals.splice(openModals.indexOf(self), 1);
      document.removeEventListener('keydown', onKeyDown, true);
      document.body.style.overflow = overflow;
      previouslyFocused?.focus?.();
    };
    // Focus handling runs once per opening; later prop changes must not move focus.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return createPortal(
    <div className="fixed inset-0 z-50 flex items-end justify-center p-0 sm:items-center sm:p-4">
      <div
        className="absolute inset-0 bg-gray-900/50"
        aria-hidden="true"
        onClick={() => dismissible && onClose()}
      />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`relative flex max-h-[100dvh] w-full flex-col overflow-hidden bg-white shadow-xl outline-none sm:max-h-[90vh] sm:rounded-lg ${sizes[size]}`}
      >
        <div className="flex items-start justify-between gap-3 border-b border-gray-200 px-4 py-3 sm:px-6">
          <h2 id={titleId} className="min-w-0 text-lg font-semibold text-gray-900">
            {title}
          </h2>
          <div className="flex shrink-0 items-center gap-2">
            {headerActions}
            <Button variant="ghost" size="icon" onClick={onClose} aria-label={closeLabel}>
              <X className="h-5 w-5" aria-hidden="true" />
            </Button>
          </div>
        </div>
        <div data-modal-body className="min-h-0 flex-1 overflow-y-auto px-4 py-4 sm:px-6">
          {children}
        </div>
      </div>
    </div>,
    document.body,
  );
}
