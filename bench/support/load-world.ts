import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { documentName, fileContent, sha256 } from './load-content.ts';
import type { DocumentProperties, WriteLedger } from './load-ledger.ts';

export type Role = 'master_admin' | 'admin' | 'user';

/** A signed-in user of the load test: an unmodified supabase-js client with its own session. */
export interface LoadUser {
  index: number;
  email: string;
  role: Role;
  organizationId: string;
  client: SupabaseClient;
  /** Documents this user uploaded: the only ones they edit, so edits never race each other. */
  own: string[];
}

export interface LoadOrganization {
  id: string;
  users: LoadUser[];
}

export interface WorldOptions {
  organizations: number;
  usersPerOrganization: number;
  /** Documents each user uploads before the measurement starts. */
  documentsPerUser: number;
  /** Distinguishes the e-mail addresses of one run from another's. */
  runId: string;
}

const PASSWORD = 'correct horse battery staple';

/** A supabase-js client for Node, as a browser holds one: its own session, no storage. */
export function nodeClient(url: string, key: string): SupabaseClient {
  return createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
}

/** The role of the `index`-th member: one master admin, two admins, the rest users. */
const roleOf = (index: number): Role =>
  index === 0 ? 'master_admin' : index <= 2 ? 'admin' : 'user';

export const DEFAULT_PROPERTIES: DocumentProperties = {
  category: 'Reports',
  expiry_date: null,
  tags: ['load'],
  description: null,
};

async function signUp(url: string, anonKey: string, email: string): Promise<SupabaseClient> {
  const client = nodeClient(url, anonKey);
  const { data, error } = await client.auth.signUp({ email, password: PASSWORD });
  if (error || !data.session) throw new Error(`sign-up of ${email} failed: ${error?.message}`);
  return client;
}

/** An organisation made as people make one: sign-up, create, invite, accept. */
async function createOrganization(
  url: string,
  anonKey: string,
  options: WorldOptions,
  number: number,
): Promise<LoadOrganization> {
  const emailOf = (i: number) => `load-${options.runId}-o${number}-u${i}@example.test`;
  const master = await signUp(url, anonKey, emailOf(0));
  const created = await master.rpc('create_organization', { name: `Load Test Church ${number}` });
  if (created.error) throw new Error(`create_organization: ${created.error.message}`);
  const organizationId = (created.data as { id: string }).id;
  const users: LoadUser[] = [
    { index: 0, email: emailOf(0), role: 'master_admin', organizationId, client: master, own: [] },
  ];
  for (let i = 1; i < options.usersPerOrganization; i++) {
    const role = roleOf(i);
    const invited = await master.rpc('invite_user', {
      email: emailOf(i),
      role,
      full_name: `Member ${i} of church ${number}`,
    });
    if (invited.error) throw new Error(`invite_user: ${invited.error.message}`);
    const token = (invited.data as { token: string }).token;
    const client = await signUp(url, anonKey, emailOf(i));
    const accepted = await client.rpc('accept_invitation', { token });
    if (accepted.error) throw new Error(`accept_invitation: ${accepted.error.message}`);
    users.push({ index: i, email: emailOf(i), role, organizationId, client, own: [] });
  }
  return { id: organizationId, users };
}

/** Uploads one document the way the app does (bytes, then row) and records it. */
export async function seedDocument(user: LoadUser, n: number, ledger: WriteLedger): Promise<void> {
  const content = fileContent(user.organizationId, `seed ${n}`);
  const filePath = `documents/${user.organizationId}/${Date.now()}-seed${user.index}x${n}.txt`;
  const upload = await user.client.storage
    .from('documents')
    .upload(filePath, content, { contentType: 'text/plain', upsert: false });
  if (upload.error) throw new Error(`seed upload: ${upload.error.message}`);
  const { data, error } = await user.client
    .from('documents')
    .insert({
      ...DEFAULT_PROPERTIES,
      organization_id: user.organizationId,
      name: documentName(n),
      size: content.length,
      file_path: filePath,
      status: 'Active',
    })
    .select('id')
    .single();
  if (error) throw new Error(`seed insert: ${error.message}`);
  const id = (data as { id: string }).id;
  user.own.push(id);
  ledger.documents.set(id, {
    id,
    organizationId: user.organizationId,
    filePath,
    acked: { contentSha: sha256(content), size: content.length, properties: DEFAULT_PROPERTIES },
    pending: {},
  });
}

/** Organisations with their members (roles mixed), made through the API, side by side. */
export function buildOrganizations(
  url: string,
  anonKey: string,
  options: WorldOptions,
): Promise<LoadOrganization[]> {
  return Promise.all(
    Array.from({ length: options.organizations }, (_, i) =>
      createOrganization(url, anonKey, options, i + 1),
    ),
  );
}

/** Every user uploads their first documents, all users at once. */
export async function seedDocuments(
  organizations: LoadOrganization[],
  options: WorldOptions,
  ledger: WriteLedger,
): Promise<void> {
  const users = organizations.flatMap((organization) => organization.users);
  await Promise.all(
    users.map(async (user) => {
      for (let n = 0; n < options.documentsPerUser; n++) {
        await seedDocument(user, user.index * options.documentsPerUser + n, ledger);
      }
    }),
  );
}
