import { BrowserRouter } from 'react-router-dom';
import { listenForHistoryMoves } from '../components/ui/use-leave-guard.ts';
import { createQueryClient } from '../lib/query-client.ts';
import { AppProviders } from './providers.tsx';
import { AppRoutes } from './routes.tsx';

const queryClient = createQueryClient();
// Before the router listens, so a page with unsaved work can hold the back button.
listenForHistoryMoves();

/** The application root: providers and routes. */
export function App() {
  return (
    <BrowserRouter>
      <AppProviders queryClient={queryClient}>
        <AppRoutes />
      </AppProviders>
    </BrowserRouter>
  );
}
