import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BackendUnavailable } from './app/backend-unavailable.tsx';
import './index.css';
import { errorMessage } from './lib/errors.ts';
import { initSupabase } from './lib/supabase.ts';

const root = createRoot(document.getElementById('root')!);

initSupabase().then(
  async () => {
    const { App } = await import('./app/app.tsx');
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  },
  (error: unknown) => {
    root.render(<BackendUnavailable message={errorMessage(error, String(error))} />);
  },
);
