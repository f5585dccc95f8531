import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { Spinner } from '../components/spinner.tsx';
import { useSession } from '../lib/session.tsx';
import { DeactivatedNotice, ProfileLoadError } from './account-notices.tsx';
import { NavigationBar } from './navigation/navigation-bar.tsx';
import { SkipLink } from './navigation/skip-link.tsx';

const MAIN_ID = 'main-content';

// Loaded only when someone is signed out: a signed-in member never downloads the form.
const AuthForm = lazy(async () => ({
  default: (await import('../features/auth/components/auth-form.tsx')).AuthForm,
}));

/**
 * The authenticated shell around every page but the invitation page (product-spec §2):
 * Loading... while the session resolves, the sign-in form in place of the page while signed
 * out (the URL stays, so signing in leads to the page asked for), otherwise the navigation bar
 * and the page. Pages may rely on the profile being loaded.
 */
export function AppShell() {
  const { status, profile, profileError } = useSession();
  if (status === 'loading') return <Spinner fullScreen />;
  if (status === 'signed-out') {
    return (
      <Suspense fallback={<Spinner fullScreen />}>
        <AuthForm />
      </Suspense>
    );
  }
  if (!profile) {
    return profileError ? <ProfileLoadError message={profileError} /> : <Spinner fullScreen />;
  }
  return (
    <div className="min-h-screen">
      <SkipLink targetId={MAIN_ID} />
      <NavigationBar />
      {/* Focusable from script only, so the skip link can move the focus here. */}
      <main id={MAIN_ID} tabIndex={-1} className="mx-auto max-w-7xl px-4 py-6 outline-none sm:px-6">
        {profile.is_active ? <Outlet /> : <DeactivatedNotice />}
      </main>
    </div>
  );
}
