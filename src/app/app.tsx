import { BrowserRouter } from 'react-router-dom';
import { listenForHistoryMoves } from '../components/ui/use-leave-guard.ts';
import { AppProviders } from './providers.tsx';
import { AppRoutes } from './routes.tsx';

// Before the router listens, so a page with unsaved work can hold the back button.
listenForHistoryMoves();

/** The application root: providers and routes. */
export function App() {
  return (
    <BrowserRouter>
      <AppProviders>
        <AppRoutes />
      </AppProviders>
    </BrowserRouter>
  );
}
