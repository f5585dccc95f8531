import { useMutation } from '@tanstack/react-query';
import { invokeOAuth, OAuthFunctionError } from './oauth-function.ts';

/**
 * Starts connecting the signed-in user to a provider: the function binds a new state to them
 * and answers the provider's authorisation address (spec §7 query).
 */
export function startAuthorization(
  providerId: string,
  origin: string,
): Promise<{ url: string; state: string }> {
  return invokeOAuth({ action: 'start', providerId, origin });
}

/**
 * Starting an authorisation for a provider id (nothing cached changes until the callback). A
 * refusal of the function says why; anything else is the specification's "Failed to initiate
 * OAuth".
 */
export const useStartAuthorization = () =>
  useMutation({
    mutationFn: (providerId: string) => startAuthorization(providerId, window.location.origin),
    meta: {
      errorMessage: (error) =>
        error instanceof OAuthFunctionError ? error.message : 'Failed to initiate OAuth',
    },
  });
