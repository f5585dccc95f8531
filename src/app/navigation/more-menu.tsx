import { ChevronDown } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import type { NavLinkItem } from './nav-links.ts';

/**
 * The bar's "More" menu: a labelled button that shows the pages beyond the specification
 * (a disclosure of links, so each stays an ordinary link for keyboards and screen readers).
 * It closes on Escape, on a click elsewhere and when a link is followed.
 */
export function MoreMenu({ links }: { links: NavLinkItem[] }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  const [openedOn, setOpenedOn] = useState(pathname);
  if (openedOn !== pathname) {
    setOpenedOn(pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open]);

  const current = links.some((link) => pathname.startsWith(link.to));
  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
        className={[
          'flex items-center gap-1 rounded-md px-1.5 py-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-primary-600 2xl:px-2',
          current
            ? 'bg-primary-50 font-semibold text-primary-700'
            : 'text-gray-700 hover:bg-gray-100 hover:text-gray-900',
        ].join(' ')}
      >
        More
        <ChevronDown className="h-4 w-4" aria-hidden="true" />
      </button>
      {open && (
        <ul
          id={listId}
          className="absolute left-0 z-50 mt-1 min-w-44 rounded-md border border-gray-200 bg-white py-1 shadow-lg"
        >
          {links.map(({ label, to }) => (
            <li key={to}>
              <NavLink
                to={to}
                className={({ isActive }) =>
                  [
                    'flex items-center gap-2 px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-primary-600',
                    isActive
                      ? 'bg-primary-50 font-semibold text-primary-700'
                      : 'text-gray-700 hover:bg-gray-100',
                  ].join(' ')
                }
              >
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
