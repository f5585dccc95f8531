/**
 * The people of the security matrix: two organisations, A and B, each with a user, an admin, a
 * master admin and a deactivated user, plus a signed-in user without an organisation and the
 * anonymous caller. Each organisation also has a "bystander" member, whose rows serve as the
 * other people's data in the cases, and a deactivated bystander for reactivate_user.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { TestServer } from '../support/server.ts';
import {
  addDeactivatedMember,
  addMember,
  createOrganisation,
  signUp,
  type Organisation,
  type Person,
} from './world.ts';

export type ActorKind =
  'anonymous' | 'no_organization' | 'user' | 'admin' | 'master_admin' | 'deactivated';

export type OrgKey = 'A' | 'B';

export interface Actor {
  /** `A.admin`, `no_organization`, … */
  label: string;
  kind: ActorKind;
  org: OrgKey | null;
  client: SupabaseClient;
  /** Null for the anonymous caller. */
  person: Person | null;
}

/** What an actor is to an organisation whose data a case touches. */
export type Standing = 'anonymous' | 'outsider' | 'deactivated' | 'user' | 'admin' | 'master_admin';

export function standing(actor: Actor, target: OrgKey): Standing {
  if (actor.kind === 'anonymous') return 'anonymous';
  if (actor.org !== target || actor.kind === 'no_organization') return 'outsider';
  return actor.kind;
}

export interface OrgWorld {
  key: OrgKey;
  organisation: Organisation;
  bystander: Person;
  deactivatedBystander: Person;
}

export interface World {
  actors: Actor[];
  orgs: Record<OrgKey, OrgWorld>;
  /** The signed-in user without an organisation. */
  loner: Person;
}

export async function buildWorld(server: TestServer): Promise<World> {
  const orgs = {} as Record<OrgKey, OrgWorld>;
  const actors: Actor[] = [
    { label: 'anonymous', kind: 'anonymous', org: null, client: server.anon(), person: null },
  ];
  const loner = await signUp(server, 'no-organization');
  actors.push({
    label: 'no_organization',
    kind: 'no_organization',
    org: null,
    client: loner.client,
    person: loner,
  });

  for (const key of ['A', 'B'] as const) {
    const organisation = await createOrganisation(server, `Organisation ${key}`);
    const user = await addMember(server, organisation, 'user', `${key}-user`);
    const admin = await addMember(server, organisation, 'admin', `${key}-admin`);
    const deactivated = await addDeactivatedMember(server, organisation, `${key}-deactivated`);
    const bystander = await addMember(server, organisation, 'user', `${key}-bystander`);
    const deactivatedBystander = await addDeactivatedMember(server, organisation, `${key}-idle`);
    orgs[key] = { key, organisation, bystander, deactivatedBystander };
    const member = (kind: ActorKind, person: Person): Actor => ({
      label: `${key}.${kind}`,
      kind,
      org: key,
      client: person.client,
      person,
    });
    actors.push(
      member('user', user),
      member('admin', admin),
      member('master_admin', organisation.master),
      member('deactivated', deactivated),
    );
  }
  return { actors, orgs, loner };
}
