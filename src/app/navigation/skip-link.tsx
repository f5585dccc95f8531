import type { MouseEvent } from 'react';

/**
 * The first thing Tab reaches on every page of the shell: hidden until focused, it moves the
 * focus past the navigation bar to the page's content. The focus is moved by script rather than
 * by following the fragment, so the address (and the router) stay as they are.
 */
export function SkipLink({ targetId }: { targetId: string }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    const target = document.getElementById(targetId);
    if (!target) return;
    event.preventDefault();
    target.focus();
    target.scrollIntoView({ block: 'start' });
  };
  return (
    <a
      href={`#${targetId}`}
      onClick={onClick}
      className="sr-only rounded-md bg-white text-sm font-medium text-primary-700 shadow-lg focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:px-4 focus:py-2 focus:outline-2 focus:outline-primary-600"
    >
      Skip to main content
    </a>
  );
}
