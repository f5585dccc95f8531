import { configure, getConfig, type Config } from '@testing-library/react';

/**
 * Two costs of jsdom and Testing Library that the component tests paid on every query, cut
 * without changing what any query finds or what a failing test prints (issue 27 item 6).
 */

const MEMOIZED = Symbol.for('steward.memoizedComputedStyle');
const DEFAULT = Symbol.for('steward.defaultGetElementError');

interface DocumentImplWithStyleCache {
  _styleCache: WeakMap<object, unknown> | null;
}

/** jsdom's own object behind `document` (the "impl" its wrappers hold under a symbol). */
function documentImpl(document: Document): DocumentImplWithStyleCache | null {
  const symbol = Object.getOwnPropertySymbols(document).find((s) => s.description === 'impl');
  const impl: unknown = symbol ? (document as unknown as Record<symbol, unknown>)[symbol] : null;
  return impl !== null && typeof impl === 'object' && '_styleCache' in impl
    ? (impl as DocumentImplWithStyleCache)
    : null;
}

/**
 * Role queries (`getByRole`, `findByRole`) compute the accessible name and the visibility of
 * every candidate element, through `getComputedStyle` on it, its ancestors and its
 * descendants, and jsdom computes every call anew: the 15 properties it resolves, walking the
 * ancestors again for the inherited ones (`visibility`, `color`, which every `border-*-color`
 * reads as `currentcolor`), and, after a change, the element's match against every rule of its
 * default style sheet (112). That was about 30 % of the CPU of the app project's test files (24
 * of 82 s of their thread, 2026-11-30); in `documents-page.test.tsx` 3,445 of 6,191 calls asked
 * again for an element whose style could not have changed since.
 *
 * jsdom already caches each element's matched declarations, per document, and drops that cache
 * (`_styleCache`, set to null) on every change it considers able to change a style: an
 * attribute, a child added or removed, a text changed, a style sheet added or removed, an
 * option's selectedness. This keeps, beside that cache and under exactly the same rule, the
 * whole computed style it returned: the same answer as long as jsdom's cache is the same one.
 * Only for elements in the document (jsdom does not drop its cache for changes outside it, and
 * recomputes inherited values along the current ancestors every time) and without a
 * pseudo-element. Callers get the same object until a change, as a browser's computed style is
 * one object per element: it is read-only there, and nothing here writes to one.
 *
 * Leaves `getComputedStyle` as it is if jsdom's cache is not where this looks for it.
 */
export function memoizeComputedStyle(document: Document): void {
  // Vitest puts jsdom's window's functions on the global object bound to it: Testing Library
  // and dom-accessibility-api call the window's own (`element.ownerDocument.defaultView`), the
  // app's code the global one. Both get the memoized one.
  const view = document.defaultView;
  if (!view) return;
  const original = view.getComputedStyle as typeof view.getComputedStyle & { [MEMOIZED]?: true };
  if (original[MEMOIZED]) return;
  const impl = documentImpl(document);
  if (!impl) return;
  let generation: object | null = null;
  let memo = new WeakMap<Element, CSSStyleDeclaration>();
  const memoized = function getComputedStyle(elt: Element, pseudoElt?: string | null) {
    if ((pseudoElt !== undefined && pseudoElt !== null && pseudoElt !== '') || !elt?.isConnected) {
      return original.call(view, elt, pseudoElt);
    }
    if (impl._styleCache === null || impl._styleCache !== generation) {
      memo = new WeakMap();
      generation = null;
    } else {
      const hit = memo.get(elt);
      if (hit) return hit;
    }
    const style = original.call(view, elt);
    // jsdom made its cache anew for this call if it had dropped it: the generation is that one.
    generation ??= impl._styleCache;
    if (generation !== null && impl._styleCache === generation) memo.set(elt, style);
    return style;
  };
  Object.defineProperty(memoized, MEMOIZED, { value: true });
  view.getComputedStyle = memoized;
  globalThis.getComputedStyle = memoized;
}

/**
 * `waitFor` (and so every `findBy*`) retries its callback until the timeout, and every failed
 * `getBy*` built an error with the whole document printed in it (`prettyDOM`), kept only until
 * the next retry: about 4 % of the app project's CPU. While `waitFor` retries, Testing Library
 * sets `_disableExpensiveErrorDiagnostics`; there the error now carries the message alone. On
 * the timeout `waitFor` passes its last error's message through `getElementError` again with the
 * container, outside the retries, so the failing test's error still shows the message and the
 * document as it was at the end (once; the default printed it twice: the last retry's copy and
 * the timeout's). A `getBy*` outside `waitFor` and the elements listed for "multiple elements"
 * (`message` null) are printed as before.
 */
export function printDomOnlyWhenThrownToTheTest(): void {
  const current = getConfig().getElementError as Config['getElementError'] & {
    [DEFAULT]?: Config['getElementError'];
  };
  // The set-up runs again for every file in the same worker (`isolate: false`): wrap the
  // default once.
  const defaultGetElementError = current[DEFAULT] ?? current;
  const getElementError: Config['getElementError'] = (message, container) => {
    const retrying = (getConfig() as { _disableExpensiveErrorDiagnostics?: boolean })
      ._disableExpensiveErrorDiagnostics;
    if (retrying === true && message !== null) {
      const error = new Error(message);
      error.name = 'TestingLibraryElementError';
      return error;
    }
    return defaultGetElementError(message, container);
  };
  Object.defineProperty(getElementError, DEFAULT, { value: defaultGetElementError });
  configure({ getElementError });
}
