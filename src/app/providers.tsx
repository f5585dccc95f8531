import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FeedbackProvider } from '../components/feedback.tsx';
import { SessionProvider } from '../lib/session.tsx';

/** Everything every screen may rely on: the server-data cache, the session and in-app alerts/confirmations. */
export function AppProviders({
  queryClient,
  children,
}: {
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <FeedbackProvider>{children}</FeedbackProvider>
      </SessionProvider>
    </QueryClientProvider>
  );
}
