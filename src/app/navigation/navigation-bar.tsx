import { Menu, X } from 'lucide-react';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { Button } from '../../components/ui/button.tsx';
import { APP_VERSION } from '../../config/app-info.ts';
import { BrandLogo } from '../../features/branding/components/brand-logo.tsx';
import { isAdminRole } from '../../lib/roles.ts';
import { useSession } from '../../lib/session.tsx';
import { MoreMenu } from './more-menu.tsx';
import { moreLinksFor, navLinksFor, type NavLinkItem } from './nav-links.ts';
import { UserSummary } from './user-summary.tsx';

// Loaded when opened: the shell is on the path of every page.
const ProfileDialog = lazy(async () => ({
  default: (await import('../../features/users/components/profile-dialog.tsx')).ProfileDialog,
}));
const TwoFactorSettings = lazy(async () => ({
  default: (await import('../../features/two-factor/components/two-factor-settings.tsx'))
    .TwoFactorSettings,
}));

function linkClass(layout: 'row' | 'stacked') {
  return ({ isActive }: { isActive: boolean }) =>
    [
      'flex items-center gap-1.5 rounded-md py-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-primary-600',
      // An admin's six links and More fit beside who is signed in from 1280 px with a long name;
      // their icons from 1536 px.
      layout === 'stacked' ? 'w-full px-3' : 'px-1.5 2xl:px-2',
      // The active page is marked by weight and aria-current as well as by colour.
      isActive
        ? 'bg-primary-50 font-semibold text-primary-700'
        : 'text-gray-700 hover:bg-gray-100 hover:text-gray-900',
    ].join(' ');
}

function NavLinks({
  links,
  layout,
  label,
}: {
  links: NavLinkItem[];
  layout: 'row' | 'stacked';
  label?: string;
}) {
  return (
    <ul
      aria-label={label}
      className={layout === 'row' ? 'flex items-center gap-0.5' : 'flex flex-col gap-1'}
    >
      {links.map(({ label, to, icon: Icon, end }) => (
        <li key={to}>
          <NavLink to={to} end={end} className={linkClass(layout)}>
            {Icon && (
              <Icon
                className={layout === 'row' ? 'hidden h-4 w-4 2xl:block' : 'h-4 w-4'}
                aria-hidden="true"
              />
            )}
            {label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

/**
 * The navigation bar (product-spec §2): logo, version badge, the specification's links by role
 * and a "More" menu for the pages beyond it, who is signed in, Profile and Sign out. Below the
 * `xl` breakpoint the links and the user move into a menu.
 */
export function NavigationBar() {
  const { user, profile, organization } = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  const [editingProfile, setEditingProfile] = useState(false);
  const menuId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const location = useLocation();

  // Following a link closes the small-screen menu.
  const [menuPath, setMenuPath] = useState(location.pathname);
  if (menuPath !== location.pathname) {
    setMenuPath(location.pathname);
    setMenuOpen(false);
  }

  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      // The menu's links disappear; the focus goes back to the button that opened it.
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  const active = profile?.is_active ?? false;
  const isAdmin = active && isAdminRole(profile?.role);
  // A deactivated member has nothing to navigate to; the shell explains why.
  const links = active ? navLinksFor(isAdmin) : [];
  const more = active ? moreLinksFor(isAdmin) : [];
  const email = profile?.email || user?.email || '';
  const summary = {
    fullName: profile?.full_name ?? null,
    email,
    role: profile?.role ?? null,
    // A deactivated member's profile is not theirs to change any more (the server says so).
    onEditProfile: active ? () => setEditingProfile(true) : undefined,
  };

  return (
    <header className="sticky top-0 z-40 border-b border-gray-200 bg-white">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-screen-2xl items-center gap-3 px-4">
        <BrandLogo
          organizationId={active ? (organization?.id ?? null) : null}
          organizationName={organization?.name ?? null}
          canUpload={isAdmin}
        />
        <span className="shrink-0 rounded-full bg-gray-100 px-2 py-0.5 text-xs font-medium text-gray-600">
          v{APP_VERSION}
        </span>
        <div className="ml-2 hidden shrink-0 items-center gap-0.5 xl:flex">
          <NavLinks links={links} layout="row" />
          {more.length > 0 && <MoreMenu links={more} />}
        </div>
        <div className="ml-auto hidden min-w-0 xl:block">
          <UserSummary {...summary} layout="row" />
        </div>
        <Button
          ref={toggleRef}
          variant="ghost"
          size="icon"
          icon={menuOpen ? X : Menu}
          onClick={() => setMenuOpen((open) => !open)}
          aria-expanded={menuOpen}
          aria-controls={menuId}
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          className="ml-auto xl:hidden"
        />
      </nav>
      {menuOpen && (
        <div id={menuId} className="border-t border-gray-200 bg-white px-4 py-3 xl:hidden">
          <NavLinks links={links} layout="stacked" />
          {more.length > 0 && (
            <div className="mt-3 border-t border-gray-200 pt-3">
              <p className="px-3 pb-1 text-xs font-semibold tracking-wide text-gray-500 uppercase">
                More
              </p>
              <NavLinks links={more} layout="stacked" label="More" />
            </div>
          )}
          <div className="mt-3 border-t border-gray-200">
            <UserSummary {...summary} layout="stacked" />
          </div>
        </div>
      )}
      {editingProfile && (
        <Suspense fallback={null}>
          <ProfileDialog
            fullName={summary.fullName}
            email={email}
            onClose={() => setEditingProfile(false)}
          >
            <TwoFactorSettings />
          </ProfileDialog>
        </Suspense>
      )}
    </header>
  );
}
