/**
 * The provider catalogue as the app shows it. The edge function holds the same list and is the
 * authority on addresses and scopes (the browser never chooses them), so both read one file.
 */
export type { OAuthProvider } from '../../../supabase/functions/oauth/providers.ts';
export {
  OAUTH_PROVIDERS,
  findProvider,
  redirectUriFor,
} from '../../../supabase/functions/oauth/providers.ts';
