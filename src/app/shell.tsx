import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { Spinner } from '../components/ui/spinner.tsx';
import { useSession } from '../lib/session.tsx';
import { NavigationBar } from './navigation/navigation-bar.tsx';
import { SkipLink } from './navigation/skip-link.tsx';

const MAIN_ID = 'main-content';

// Screens that most visits never show are loaded when they are: the sign-in form (signed out)
// and the notices for a deactivated account or a profile that cannot be loaded.
const AuthForm = lazy(async () => ({
  default: (await import('../features/auth/components/auth-form.tsx')).AuthForm,
}));
const DeactivatedNotice = lazy(async () => ({
  default: (await import('./account-notices.tsx')).DeactivatedNotice,
}));
const TwoFactorChallengeScreen = lazy(async () => ({
  default: (await import('../features/two-factor/two-factor-screens.tsx')).TwoFactorChallengeScreen,
}));
const TwoFactorEnrolmentScreen = lazy(async () => ({
  default: (await import('../features/two-factor/two-factor-screens.tsx')).TwoFactorEnrolmentScreen,
}));
const ProfileLoadError = lazy(async () => ({
  default: (await import('./account-notices.tsx')).ProfileLoadError,
}));

/**
 * The authenticated shell around every page but the invitation page (product-spec §2):
 * Loading... while the session resolves, the sign-in form in place of the page while signed
 * out (the URL stays, so signing in leads to the page asked for), the second step of a
 * two-factor sign-in (or its set-up, where the organisation requires it), otherwise the navigation bar
 * and the page. Pages may rely on the profile being loaded.
 */
export function AppShell() {
  const { status, profile, profileError, secondFactor } = useSession();
  if (status === 'loading') return <Spinner fullScreen />;
  if (status === 'signed-in' && secondFactor) {
    return (
      <Suspense fallback={<Spinner fullScreen />}>
        {secondFactor.kind === 'challenge' ? (
          <TwoFactorChallengeScreen factorId={secondFactor.factorId} />
        ) : (
          <TwoFactorEnrolmentScreen />
        )}
      </Suspense>
    );
  }
  if (status === 'signed-out' || !profile) {
    return (
      <Suspense fallback={<Spinner fullScreen />}>
        {status === 'signed-out' ? (
          <AuthForm />
        ) : profileError ? (
          <ProfileLoadError message={profileError} />
        ) : (
          <Spinner fullScreen />
        )}
      </Suspense>
    );
  }
  return (
    <div className="min-h-screen">
      <SkipLink targetId={MAIN_ID} />
      <NavigationBar />
      {/* Focusable from script only, so the skip link can move the focus here. */}
      <main id={MAIN_ID} tabIndex={-1} className="mx-auto max-w-7xl px-4 py-6 outline-none sm:px-6">
        {profile.is_active ? (
          <Outlet />
        ) : (
          <Suspense fallback={<Spinner />}>
            <DeactivatedNotice />
          </Suspense>
        )}
      </main>
    </div>
  );
}
