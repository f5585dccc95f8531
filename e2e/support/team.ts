import { expect, type Page } from '@playwright/test';
import { apiClient } from './api.ts';

export const PASSWORD = 'correct horse battery staple';

/**
 * Signs up through the sign-in form's Create account mode, which says so and returns to sign-in
 * mode with the e-mail kept (spec §2, §4), then signs in with the new password.
 */
export async function signUpThroughForm(page: Page, email: string, password = PASSWORD) {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign in to Steward' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('log', { name: 'Notifications' })).toContainText(
    'Account created successfully! You can now sign in.',
  );
  await expect(page.getByRole('heading', { name: 'Sign in to Steward' })).toBeVisible();
  await expect(page.getByLabel('Email address')).toHaveValue(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A supabase-js client in Node signed in as `email`: what that person's own requests see. */
export async function signedInApi(baseURL: string, email: string, password = PASSWORD) {
  const api = await apiClient(baseURL);
  const { error } = await api.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return api;
}

/** Everything of the organisation a person's requests can read, table by table. */
export async function visibleOrganizationData(api: Awaited<ReturnType<typeof apiClient>>) {
  const [organizations, profiles, documents, invitations] = await Promise.all([
    api.from('organizations').select('id, name'),
    api.from('user_profiles').select('id, email'),
    api.from('documents').select('id'),
    api.from('user_invitations').select('id'),
  ]);
  for (const answer of [organizations, profiles, documents, invitations]) {
    if (answer.error) throw new Error(answer.error.message);
  }
  return {
    organizations: organizations.data ?? [],
    profiles: profiles.data ?? [],
    documents: documents.data ?? [],
    invitations: invitations.data ?? [],
  };
}

/** The members table row of `email` on /users. */
export function memberRow(page: Page, email: string) {
  return page.getByRole('row', { name: new RegExp(email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });
}

/** Answers the in-app confirmation with its action (`Deactivate`…) after checking its question. */
export async function confirm(page: Page, question: string, action: string) {
  const dialog = page.getByRole('dialog', { name: 'Please confirm' });
  await expect(dialog).toContainText(question);
  await dialog.getByRole('button', { name: action, exact: true }).click();
  await expect(dialog).toBeHidden();
}
