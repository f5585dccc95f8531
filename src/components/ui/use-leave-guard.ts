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
/** Undoes `install` while guards hold. */
let release: (() => void) | null = null;

const LEAVE_CHOICES: ConfirmOptions = {
  title: 'Leave this page?',
  confirmLabel: 'Leave',
  cancelLabel: 'Stay',
  destructive: true,
};

const positionOf = (state: unknown) =>
  typeof state === 'object' &&
  state !== null &&
  typeof (state as { idx?: unknown }).idx === 'number'
    ? (state as { idx: number }).idx
    : null;

let asking = false;
/** While a guard holds: where in the browser's history the guarded page is. */
let here: number | null = null;
let stepBackPending = false;

function ask(proceed: () => void) {
  const guard = guards.at(-1);
  if (!guard || asking) return;
  asking = true;
  void guard.ask(guard.question, LEAVE_CHOICES).then((leave) => {
    asking = false;
    if (!leave) return;
    // Leaving ends the guards of this page (they are released as it unmounts).
    release?.();
    guards.length = 0;
    proceed();
  });
}

/**
 * The browser's back and forward buttons move the history before anyone is told: while a guard
 * holds, the move is stepped back (the router keeps each entry's position in `state.idx`) and
 * kept from the router, then asked about, then replayed if the user leaves. Listeners of an
 * event on `window` run in the order they were added, so this one must be added before the
 * router's (which listens from its first render): see `listenForHistoryMoves`.
 */
function onPopState(event: PopStateEvent) {
  if (here === null) return;
  if (stepBackPending) {
    stepBackPending = false;
    event.stopImmediatePropagation();
    return;
  }
  const there = positionOf(event.state);
  if (there === null || there === here) return;
  event.stopImmediatePropagation();
  stepBackPending = true;
  const from = here;
  window.history.go(from - there);
  ask(() => window.history.go(there - from));
}

let listening = false;

/** Call once before the router first renders (app.tsx), so back and forward can be guarded. */
export function listenForHistoryMoves(): void {
  if (listening) return;
  listening = true;
  window.addEventListener('popstate', onPopState);
}

/**
 * Puts itself between the router and the navigations it starts while at least one guard
 * holds: links and `navigate()` go through the navigator's push, replace and go, which ask
 * first. React Router's own `useBlocker` does this and the above, but only with a data router,
 * which costs the dashboard more than its whole download budget has left.
 */
function install(navigator: Navigator): () => void {
  const original = { push: navigator.push, replace: navigator.replace, go: navigator.go };
  navigator.push = (...args) => ask(() => original.push(...args));
  navigator.replace = (...args) => ask(() => original.replace(...args));
  navigator.go = (delta) => ask(() => original.go(delta));
  here = positionOf(window.history.state);
  return () => {
    Object.assign(navigator, original);
    here = null;
    release = null;
  };
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
      if (guards.length === 0) release?.();
    };
  }, [when, navigator, confirm]);
}
