/**
 * Stands in for auth-js's Ethereum sign-in helpers in the browser build (see vite.config.ts):
 * supabase-js uses them only in `signInWithWeb3`, which Steward never calls.
 */
function unsupported(): never {
  throw new Error('Web3 sign-in is not part of Steward: the client is built without it.');
}

export const createSiweMessage = unsupported;
export const fromHex = unsupported;
export const getAddress = unsupported;
export const toHex = unsupported;
