import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppContext } from '../context.ts';
import type { ApiEnv } from '../http/api-env.ts';
import { errorFormat } from '../http/api-error.ts';
import { registerAdmin } from './admin.ts';
import { AuthError, authErrors } from './errors.ts';
import { preparePasswordChecks } from './passwords.ts';
import { AuthLimits } from './limits.ts';
import { registerMfa } from './mfa.ts';
import { registerReauthenticate } from './reauthenticate.ts';
import { registerRecover } from './recover.ts';
import { confirmationsRequired, registerSignup } from './signup.ts';
import { registerToken } from './token.ts';
import { registerUserRoutes } from './user-routes.ts';
import { registerVerify } from './verify.ts';

/** Requests to the auth service carry small JSON bodies; anything bigger is refused unread. */
const MAX_BODY_BYTES = 64 * 1024;

/** The paths this service answers and their methods, for 405 answers on the others. */
const ROUTES: Record<string, string[]> = {
  '/signup': ['POST'],
  '/token': ['POST'],
  '/recover': ['POST'],
  '/verify': ['GET', 'POST'],
  '/user': ['GET', 'PUT'],
  '/reauthenticate': ['GET'],
  '/logout': ['POST'],
  '/settings': ['GET'],
  '/health': ['GET'],
  '/admin/users': ['POST'],
  '/admin/users/:id': ['DELETE'],
  '/admin/generate_link': ['POST'],
  '/factors': ['POST'],
  '/factors/:id': ['DELETE'],
  '/factors/:id/challenge': ['POST'],
  '/factors/:id/verify': ['POST'],
};

const SETTINGS = {
  external: {
    anonymous_users: false,
    apple: false,
    azure: false,
    bitbucket: false,
    discord: false,
    facebook: false,
    snapchat: false,
    figma: false,
    fly: false,
    github: false,
    gitlab: false,
    google: false,
    keycloak: false,
    kakao: false,
    linkedin: false,
    linkedin_oidc: false,
    notion: false,
    spotify: false,
    slack: false,
    slack_oidc: false,
    workos: false,
    twitch: false,
    twitter: false,
    email: true,
    phone: false,
    zoom: false,
  },
  disable_signup: false,
  mailer_autoconfirm: true,
  phone_autoconfirm: false,
  sms_provider: '',
  saml_enabled: false,
  saml_private_key_next_configured: false,
  passkeys_enabled: false,
};

/**
 * `/auth/v1`: the subset of GoTrue (Supabase Auth) that supabase-js uses for e-mail and
 * password accounts, with GoTrue's status codes, error codes, messages and token claims.
 */
export function createAuthApp(ctx: AppContext): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  const settings = ctx.config.auth;
  const limits = new AuthLimits(ctx.db, settings);
  preparePasswordChecks(ctx.cpu, settings.bcryptCost);

  app.use('*', errorFormat(authErrors));
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) =>
        new AuthError(
          413,
          'request_entity_too_large',
          `Request body too large (max ${MAX_BODY_BYTES} bytes)`,
        ).toResponse(c),
    }),
  );

  app.get('/health', (c) =>
    c.json({
      version: 'steward',
      name: 'GoTrue',
      description: 'GoTrue is a user registration and authentication API',
    }),
  );
  app.get('/settings', (c) =>
    c.json({
      ...SETTINGS,
      disable_signup: !settings.enableSignup,
      mailer_autoconfirm: !confirmationsRequired(ctx),
    }),
  );
  registerSignup(app, ctx, limits);
  registerToken(app, ctx, limits);
  registerRecover(app, ctx, limits);
  registerVerify(app, ctx);
  registerUserRoutes(app, ctx, limits);
  registerReauthenticate(app, ctx, limits);
  registerMfa(app, ctx);
  registerAdmin(app, ctx);

  for (const [path, methods] of Object.entries(ROUTES)) {
    app.all(path, (c) =>
      new AuthError(
        405,
        'method_not_allowed',
        `Method ${c.req.method} is not allowed here`,
        {},
        { Allow: methods.join(', ') },
      ).toResponse(c),
    );
  }
  app.all('*', (c) => new AuthError(404, 'not_found', 'Not Found').toResponse(c));
  return app;
}
