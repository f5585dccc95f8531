import { useCallback, useEffect, useState } from 'react';
import { listProviderSettings, type ProviderSettings } from '../api/provider-settings.ts';

/**
 * The organisation's provider configurations by provider id (which are set up, and whether a
 * secret is stored). Failing to read them leaves the map empty: every provider then shows as
 * not set up, which is the safe reading.
 */
export function useProviderSettings(organizationId: string | null) {
  const [settings, setSettings] = useState<ReadonlyMap<string, ProviderSettings>>(new Map());
  const [loaded, setLoaded] = useState(false);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    if (!organizationId) return;
    let current = true;
    listProviderSettings().then(
      (rows) => {
        if (!current) return;
        setSettings(new Map(rows.map((row) => [row.provider_id, row])));
        setLoaded(true);
      },
      (error: unknown) => {
        console.error('Failed to load provider settings', error);
        if (current) setLoaded(true);
      },
    );
    return () => {
      current = false;
    };
  }, [organizationId, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { settings, loaded, reload };
}
