import { useCallback, useEffect, useState } from 'react';
import { downloadLogo } from '../api/logo.ts';
import { svgDataUrl } from '../lib/svg-data-url.ts';

interface LogoState {
  organizationId: string | null;
  url: string | null;
}

/**
 * The organisation's custom logo as a URL for an <img>, or null for "show the product name".
 * `replace` shows a just-uploaded logo at once, without downloading it again.
 */
export function useOrganizationLogo(organizationId: string | null) {
  const [state, setState] = useState<LogoState>({ organizationId: null, url: null });

  useEffect(() => {
    if (!organizationId) return;
    let current = true;
    void downloadLogo(organizationId).then((bytes) => {
      if (current) setState({ organizationId, url: bytes ? svgDataUrl(bytes) : null });
    });
    return () => {
      current = false;
    };
  }, [organizationId]);

  const replace = useCallback(
    (bytes: ArrayBuffer) => {
      if (organizationId) setState({ organizationId, url: svgDataUrl(bytes) });
    },
    [organizationId],
  );

  return { url: state.organizationId === organizationId ? state.url : null, replace };
}
