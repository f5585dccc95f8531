/**
 * The `oauth` edge function's `configure` action × every actor: it saves a provider's client
 * and addresses for the caller's own organisation, as the rpc `save_oauth_config` (which it
 * calls as the caller) allows, and refuses addresses outside the provider catalogue for
 * everyone, master admins included, before anything is stored.
 */
import { FunctionsHttpError } from '@supabase/supabase-js';
import { randomBytes } from 'node:crypto';
import type { TestServer } from '../support/server.ts';
import type { Actor, World } from './actors.ts';
import type { Case, Outcome } from './cases.ts';
import { unwrap } from './world.ts';

/** `allowed` on success, `denied` when the caller is not signed in, else the function's text. */
async function outcomeOf(invoked: Promise<{ data: unknown; error: unknown }>): Promise<Outcome> {
  const { error } = await invoked;
  if (!error) return 'allowed';
  if (!(error instanceof FunctionsHttpError)) throw error;
  const response = error.context as Response;
  if (response.status === 401) return 'denied';
  const body = (await response.json()) as { error?: string };
  return `error: ${body.error}`;
}

/** What the function answers `actor` before any address is looked at. */
function callerOutcome(actor: Actor): Outcome | null {
  if (actor.kind === 'anonymous') return 'denied';
  if (actor.kind === 'no_organization' || actor.kind === 'deactivated') {
    return 'error: No organization found';
  }
  return null;
}

export function functionCases(server: TestServer, world: World): Case[] {
  const cases: Case[] = [];
  const group = 'function oauth configure';

  for (const actor of world.actors) {
    /** Saves Slack's settings with a client id unique to the case; answers where it landed. */
    const configure = async (tokenUrl: string | null) => {
      const clientId = `matrix-${randomBytes(4).toString('hex')}`;
      const outcome = await outcomeOf(
        actor.client.functions.invoke('oauth', {
          body: {
            action: 'configure',
            providerId: 'slack',
            clientId,
            clientSecret: 'matrix-secret',
            authorizeUrl: null,
            tokenUrl,
          },
        }),
      );
      const rows = unwrap(
        await server
          .service()
          .from('oauth_configs')
          .select('organization_id')
          .eq('client_id', clientId),
        'check',
      ) as { organization_id: string }[];
      return { outcome, rows };
    };

    cases.push({
      group,
      name: `${actor.label} configures Slack with the catalogue's addresses`,
      expected:
        callerOutcome(actor) ??
        (actor.kind === 'master_admin'
          ? 'allowed'
          : 'error: Only master admins can configure OAuth providers'),
      run: async () => {
        const { outcome, rows } = await configure(null);
        const own = actor.org ? world.orgs[actor.org].organisation.id : null;
        if (outcome === 'allowed' && (rows.length !== 1 || rows[0]!.organization_id !== own)) {
          return 'error: configuration not stored for the own organisation';
        }
        if (outcome !== 'allowed' && rows.length > 0) return 'error: stored despite the refusal';
        return outcome;
      },
    });

    cases.push({
      group,
      name: `${actor.label} points Slack's token address at a host outside the catalogue`,
      expected:
        callerOutcome(actor) ??
        'error: Token URL: The address must be on slack.com, or on a host this installation allows',
      run: async () => {
        const { outcome, rows } = await configure('https://collector.example.net/token');
        if (rows.length > 0) return 'error: stored an address outside the catalogue';
        return outcome;
      },
    });
  }
  return cases;
}
