import { Outlet } from 'react-router-dom';
import { Spinner } from '../components/spinner.tsx';
import { useSession } from '../lib/session.tsx';

/** Placeholder shell: the navigation bar and sign-in form come with the sign-in work. */
export function AppShell() {
  const { status } = useSession();
  if (status === 'loading') return <Spinner fullScreen />;
  return (
    <main className="mx-auto max-w-7xl p-4">
      <Outlet />
    </main>
  );
}
