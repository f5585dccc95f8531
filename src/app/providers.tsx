import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FeedbackProvider } from '../components/feedback.tsx';
import { ToastProvider } from '../components/ui/toast.tsx';
import { SessionProvider } from '../lib/session.tsx';

/**
 * Everything every screen may rely on: the server-data cache, the session, in-app
 * alerts/confirmations and passing notices (toasts).
 */
export function AppProviders({
  queryClient,
  children,
}: {
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <SessionProvider>
          <FeedbackProvider>{children}</FeedbackProvider>
        </SessionProvider>
      </ToastProvider>
    </QueryClientProvider>
  );
}
