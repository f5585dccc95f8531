/**
 * The provider catalogue as the app shows it. It lives with the code shared by the edge
 * functions (`supabase/functions/_shared/`), because the `oauth` function reads the same list
 * and is the authority on addresses and scopes (the browser never chooses them).
 */
export type { OAuthProvider } from '../../../supabase/functions/_shared/oauth-providers.ts';
export {
  OAUTH_PROVIDERS,
  findProvider,
  redirectUriFor,
} from '../../../supabase/functions/_shared/oauth-providers.ts';
