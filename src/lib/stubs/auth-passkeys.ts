/**
 * Stands in for auth-js's passkey (WebAuthn) helpers in the browser build (see vite.config.ts).
 * Steward signs in with e-mail and password only; supabase-js builds its passkey API when the
 * client is created but calls these functions only from its passkey and WebAuthn-MFA methods,
 * which Steward never uses. Anything that does reach them fails loudly.
 */
function unsupported(): never {
  throw new Error('Passkeys are not part of Steward: the client is built without them.');
}

export const createCredential = unsupported;
export const getCredential = unsupported;
export const deserializeCredentialCreationOptions = unsupported;
export const deserializeCredentialRequestOptions = unsupported;
export const serializeCredentialCreationResponse = unsupported;
export const serializeCredentialRequestResponse = unsupported;

export function browserSupportsWebAuthn(): boolean {
  return false;
}

export const webAuthnAbortService = {
  createNewAbortSignal: unsupported,
  cancelCeremony(): void {},
};

export class WebAuthnApi {
  constructor(_client: unknown) {}
}
