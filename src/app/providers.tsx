import type { ReactNode } from 'react';
import { FeedbackProvider } from '../components/feedback.tsx';
import { SessionProvider } from '../lib/session.tsx';

/** Everything every screen may rely on: the session and in-app alerts/confirmations. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <SessionProvider>
      <FeedbackProvider>{children}</FeedbackProvider>
    </SessionProvider>
  );
}
