import { expect, type Page } from '@playwright/test';
import { apiClient, uniqueEmail } from './api.ts';

export const PASSWORD = 'correct horse battery staple';

type Api = Awaited<ReturnType<typeof apiClient>>;

export interface Person {
  email: string;
  password: string;
  /** A supabase-js client in Node signed in as this person. */
  api: Api;
}

export interface Organization {
  id: string;
  name: string;
  masterAdmin: Person;
}

async function signUp(baseURL: string, email: string): Promise<Person> {
  const api = await apiClient(baseURL);
  const { data, error } = await api.auth.signUp({ email, password: PASSWORD });
  if (error || !data.session) throw error ?? new Error('sign-up returned no session');
  return { email, password: PASSWORD, api };
}

/** A new organisation created through the API by a new user, its master admin. */
export async function createOrganization(baseURL: string, label: string): Promise<Organization> {
  const masterAdmin = await signUp(baseURL, uniqueEmail(`${label}-master`));
  const name = `${label} Church ${Date.now().toString(36)}`;
  const { data, error } = await masterAdmin.api.rpc('create_organization', { name });
  if (error) throw new Error(error.message);
  return { id: (data as unknown as { id: string }).id, name, masterAdmin };
}

/** A new member of `organization` with `role`, joined through a real invitation. */
export async function addMember(
  baseURL: string,
  organization: Organization,
  role: 'user' | 'admin',
): Promise<Person> {
  const email = uniqueEmail(`${role}`);
  const invite = await organization.masterAdmin.api.rpc('invite_user', {
    email,
    role,
    full_name: null as unknown as string,
  });
  if (invite.error) throw new Error(invite.error.message);
  const { token } = invite.data as unknown as { token: string };
  const member = await signUp(baseURL, email);
  const accepted = await member.api.rpc('accept_invitation', { token });
  if (accepted.error) throw new Error(accepted.error.message);
  return member;
}

/**
 * Document rows for the organisation, inserted through the API as `by` (a member), without
 * stored bytes: `size` is what the e-mail dialog adds up, so 25 MB need not be uploaded.
 */
export async function seedDocuments(
  organization: Organization,
  by: Person,
  documents: { name: string; category: string; size: number; tags?: string[] }[],
) {
  const { error } = await by.api.from('documents').insert(
    documents.map((document, index) => ({
      organization_id: organization.id,
      name: document.name,
      category: document.category as never,
      size: document.size,
      tags: document.tags ?? [],
      file_path: `documents/${organization.id}/${Date.now()}-e2e${index}.pdf`,
    })),
  );
  if (error) throw new Error(error.message);
}

/** Signs in through the sign-in form on `path` and waits for the page behind it. */
export async function signIn(page: Page, person: Person, path: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { name: 'Sign in to Steward' })).toBeVisible();
  await page.getByLabel('Email address').fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Steward' })).toBeHidden();
}

/** The figure of a stat card. */
export function statValue(page: Page, label: string) {
  return page
    .locator('p', { hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::p[1]');
}

/** Today plus `days`, as `yyyy-MM-dd` in the browser's (and this machine's) time zone. */
export function localDate(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
