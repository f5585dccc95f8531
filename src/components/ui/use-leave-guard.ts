import { useContext, useEffect, useRef } from 'react';
import { UNSAFE_NavigationContext } from 'react-router-dom';
import { useFeedback, type ConfirmOptions } from '../feedback.tsx';

type Navigator = React.ContextType<typeof UNSAFE_NavigationContext>['navigator'];
type Ask = (question: string, options: ConfirmOptions) => Promise<boolean>;

interface Guard {
  question: string;
  ask: Ask;
}

/** The guards that hold now, newest last; the newest one's question is asked. */
const guards: Guard[] = [];
let release: (() => void) | null = null;

const LEAVE_CHOICES: ConfirmOptions = {
  title: 'Leave this page?',
  confirmLabel: 'Leave',
  cancelLabel: 'Stay',
  destructive: true,
};

/**
 * Puts itself between the router and every navigation while at least one guard holds: links
 * and `navigate()` go through the navigator's push, replace and go, which ask first; the
 * browser's back and forward buttons move the history before anyone is told, so a popstate is
 * stepped back (the history keeps its position in `state.idx`), then asked about, then replayed
 * if the user leaves. React Router's own `useBlocker` does the same, but only with a data router,
 * which costs the dashboard more than its whole download budget has left.
 */
function install(navigator: Navigator): () => void {
  const original = { push: navigator.push, replace: navigator.replace, go: navigator.go };
  let asking = false;
  let stepBackPending = false;

  const uninstall = () => {
    Object.assign(navigator, original);
    window.removeEventListener('popstate', onPopState, true);
  };
  const ask = (proceed: () => void) => {
    const guard = guards.at(-1);
    if (!guard || asking) return;
    asking = true;
    void guard.ask(guard.question, LEAVE_CHOICES).then((leave) => {
      asking = false;
      if (!leave) return;
      // Leaving ends the guards of this page: they are released as it unmounts.
      uninstall();
      release = null;
      guards.length = 0;
      proceed();
    });
  };

  navigator.push = (...args) => ask(() => original.push(...args));
  navigator.replace = (...args) => ask(() => original.replace(...args));
  navigator.go = (delta) => ask(() => original.go(delta));

  const positionOf = (state: unknown) =>
    typeof state === 'object' &&
    state !== null &&
    typeof (state as { idx?: unknown }).idx === 'number'
      ? (state as { idx: number }).idx
      : null;
  const here = positionOf(window.history.state);

  // Runs before the router's own listener (capturing listeners run first at the target), and
  // keeps the router from seeing the move until the user has decided.
  function onPopState(event: PopStateEvent) {
    if (stepBackPending) {
      stepBackPending = false;
      event.stopImmediatePropagation();
      return;
    }
    const there = positionOf(event.state);
    if (here === null || there === null || there === here) return;
    event.stopImmediatePropagation();
    stepBackPending = true;
    window.history.go(here - there);
    ask(() => window.history.go(there - here));
  }
  window.addEventListener('popstate', onPopState, true);
  return uninstall;
}

/**
 * While `when` holds, leaving the page asks `question` first, with Stay (focused) and Leave:
 * following a link, going back or forward, or closing or reloading the tab (where the browser
 * asks in its own words). For pages and dialogs whose work would be lost: files still
 * uploading, typed input not saved.
 */
export function useLeaveGuard(when: boolean, question: string): void {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const { confirm } = useFeedback();
  const questionRef = useRef(question);
  useEffect(() => {
    questionRef.current = question;
  });

  useEffect(() => {
    if (!when) return;
    const guard: Guard = {
      get question() {
        return questionRef.current;
      },
      ask: confirm,
    };
    guards.push(guard);
    release ??= install(navigator);
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when a return value is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      const index = guards.indexOf(guard);
      if (index >= 0) guards.splice(index, 1);
      if (guards.length === 0 && release) {
        release();
        release = null;
      }
    };
  }, [when, navigator, confirm]);
}
