import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AppProviders } from '../app/providers.tsx';
import { routes } from '../app/router.tsx';
import { setSupabaseClient, type AppSupabaseClient } from '../lib/supabase.ts';
import { newClient } from './backend.ts';

export interface RenderAppOptions {
  /** The client the app uses; a signed-in one from `signUpUser()`, or a new signed-out one. */
  client?: AppSupabaseClient;
  /** The URL to open. */
  route?: string;
}

/** Mounts the whole app (real providers, real routes) in a memory router at `route`. */
export function renderApp({
  client = newClient(),
  route = '/',
}: RenderAppOptions = {}): RenderResult & {
  router: ReturnType<typeof createMemoryRouter>;
} {
  setSupabaseClient(client);
  const router = createMemoryRouter(routes, { initialEntries: [route] });
  const result = render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router };
}

/** Mounts one component inside the real providers (for components used outside a route). */
export function renderWithProviders(
  ui: ReactElement,
  { client = newClient() }: { client?: AppSupabaseClient } = {},
) {
  setSupabaseClient(client);
  return render(<AppProviders>{ui}</AppProviders>);
}
