import { render, type RenderResult } from '@testing-library/react';
import { useEffect, type ReactElement } from 'react';
import { MemoryRouter, useLocation, type Location } from 'react-router-dom';
import { AppProviders } from '../app/providers.tsx';
import { AppRoutes } from '../app/routes.tsx';
import { setSupabaseClient, type AppSupabaseClient } from '../lib/supabase.ts';
import { newClient } from './backend.ts';

export interface RenderAppOptions {
  /** The client the app uses; a signed-in one from `signUpUser()`, or a new signed-out one. */
  client?: AppSupabaseClient;
  /** The URL to open. */
  route?: string;
}

/** Where the app is: `router.state.location.pathname`, read after navigation. */
export interface RouterProbe {
  readonly state: { location: Location };
}

function LocationProbe({ onChange }: { onChange: (location: Location) => void }) {
  const location = useLocation();
  useEffect(() => {
    onChange(location);
  }, [location, onChange]);
  return null;
}

/**
 * Mounts the whole app (real providers, real routes) in a memory router at `route`, with a
 * cache of server data of its own, so no test sees what another loaded.
 */
export function renderApp({
  client = newClient(),
  route = '/',
}: RenderAppOptions = {}): RenderResult & { router: RouterProbe } {
  setSupabaseClient(client);
  let current = { pathname: route.split('?')[0] } as Location;
  const router: RouterProbe = {
    get state() {
      return { location: current };
    },
  };
  const result = render(
    <MemoryRouter initialEntries={[route]}>
      <LocationProbe
        onChange={(location) => {
          current = location;
        }}
      />
      <AppProviders>
        <AppRoutes />
      </AppProviders>
    </MemoryRouter>,
  );
  return { ...result, router };
}

/**
 * Mounts one component inside the real providers and a router (for components outside a
 * route), with a fresh cache of server data.
 */
export function renderWithProviders(
  ui: ReactElement,
  { client = newClient() }: { client?: AppSupabaseClient } = {},
): RenderResult {
  setSupabaseClient(client);
  return render(
    <MemoryRouter>
      <AppProviders>{ui}</AppProviders>
    </MemoryRouter>,
  );
}
