import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { FeedbackProvider } from '../components/feedback.tsx';
import { ToastProvider, useToast } from '../components/ui/toast.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { SessionProvider } from '../lib/session.tsx';

/** The server-data cache, whose failed writes are shown as notices (lib/query-client.ts). */
function ServerDataProvider({ children }: { children: ReactNode }) {
  const toast = useToast();
  const [queryClient] = useState(() => createQueryClient((message) => toast(message, 'error')));
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

/**
 * Everything every screen may rely on: notices (toasts), the server-data cache, the session and
 * in-app confirmations. Each mount has a cache of its own.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <ToastProvider>
      <ServerDataProvider>
        <SessionProvider>
          <FeedbackProvider>{children}</FeedbackProvider>
        </SessionProvider>
      </ServerDataProvider>
    </ToastProvider>
  );
}
