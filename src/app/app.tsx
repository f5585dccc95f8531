import { BrowserRouter } from 'react-router-dom';
import { createQueryClient } from '../lib/query-client.ts';
import { AppProviders } from './providers.tsx';
import { AppRoutes } from './routes.tsx';

const queryClient = createQueryClient();

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
