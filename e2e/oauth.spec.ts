import type { Page } from '@playwright/test';
import { format } from 'date-fns';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  MockAuthorizationServer,
  recordApiResponses,
  serviceClient,
  signIn,
  signInNewMasterAdmin,
  type SignedInMasterAdmin,
} from './support/oauth.ts';
import { expect, test } from './support/test.ts';

// Connections to an outside service, end to end: a master admin sets up Slack against a local
// authorisation server (through the address override), connects, sees the connection, gets a
// refresh, a failed refresh and a disconnection, and every way a return from the provider can
// go wrong. Throughout, no response to the browser may carry the client secret or a refresh
// token.

const CLIENT_SECRET = `e2e-client-secret-${Date.now().toString(36)}`;
const EXPIRY_FORMAT = /^[A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2}$/;

let provider: MockAuthorizationServer;
let admin: SignedInMasterAdmin;
/** Every API response body any page of this file received. */
const responses: string[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  provider = new MockAuthorizationServer();
  await provider.start();
});
test.afterAll(async () => {
  await provider?.stop();
});

const slackCard = (page: Page) => page.getByRole('article', { name: 'Slack' });

async function openConnections(page: Page) {
  await page.goto('/oauth');
  await expect(page.getByRole('heading', { name: 'OAuth Connections' })).toBeVisible();
  await expect(slackCard(page)).toBeVisible();
}

/** Goes to the provider and back; resolves on the callback page. */
async function connectSlack(page: Page) {
  await openConnections(page);
  await slackCard(page)
    .getByRole('button', { name: /^(Connect|Reconnect) Slack$/ })
    .click();
  await page.waitForURL(/\/oauth\/callback\/slack\?/);
}

async function connectionRow(baseURL: string) {
  const service = await serviceClient(baseURL);
  const { data, error } = await service
    .from('oauth_connections')
    .select('id, expires_at, is_active, needs_reconnect')
    .eq('user_id', admin.userId)
    .eq('provider_id', 'slack')
    .single();
  if (error) throw new Error(error.message);
  return { service, row: data };
}

test('a master admin sets up Slack with a write-only secret', async ({ page, baseURL }) => {
  admin = await signInNewMasterAdmin(page, baseURL!);
  recordApiResponses(page, baseURL!, responses);
  await openConnections(page);

  // Ten providers, each with name, category and description; the security note.
  await expect(page.getByRole('article')).toHaveCount(10);
  for (const name of ['Google Workspace', 'Microsoft 365', 'QuickBooks Online', 'GitHub']) {
    await expect(page.getByRole('article', { name })).toBeVisible();
  }
  await expect(slackCard(page)).toContainText('Communication');
  await expect(page.getByRole('heading', { name: 'About OAuth Security' })).toBeVisible();
  await expect(page.getByText(/refreshed automatically/)).toBeVisible();
  await expect(slackCard(page).getByRole('button', { name: 'Connect Slack' })).toBeDisabled();

  await slackCard(page).getByRole('button', { name: 'Settings for Slack' }).click();
  const dialog = page.getByRole('dialog', { name: 'Slack settings' });
  await expect(dialog.getByText('Not set.')).toBeVisible();
  await dialog.getByLabel('Client ID').fill('steward-e2e');
  await dialog.getByLabel('Client secret').fill(CLIENT_SECRET);
  await dialog.getByLabel('Authorization URL').fill(`${provider.url}/authorize`);
  await dialog.getByLabel('Token URL').fill(`${provider.url}/token`);
  await expect(dialog.getByLabel('Redirect URL')).toHaveValue(`${baseURL}/oauth/callback/slack`);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(slackCard(page).getByRole('button', { name: 'Connect Slack' })).toBeEnabled();

  // Reopened: the secret shows as set, and is not in the form.
  await slackCard(page).getByRole('button', { name: 'Settings for Slack' }).click();
  await expect(dialog.getByText(/^Set\./)).toBeVisible();
  await expect(dialog.getByLabel('Client secret')).toHaveValue('');
  await expect(dialog.getByLabel('Client ID')).toHaveValue('steward-e2e');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});

test('a token address on a host nobody allowed is refused, and nothing is sent there', async ({
  page,
  baseURL,
}) => {
  // A server of this machine under a name the installation does not allow (it allows
  // localhost, the name of the mock authorisation server).
  const requests: string[] = [];
  const outsider = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => outsider.listen(0, '127.0.0.1', resolve));
  const outsiderUrl = `http://127.0.0.1:${(outsider.address() as AddressInfo).port}`;
  try {
    await signInAgain(page, baseURL!);
    await openConnections(page);
    await slackCard(page).getByRole('button', { name: 'Settings for Slack' }).click();
    const dialog = page.getByRole('dialog', { name: 'Slack settings' });
    await dialog.getByLabel('Token URL').fill(`${outsiderUrl}/token`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'Token URL: The address must be on slack.com, or on a host this installation allows',
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // The saved settings are unchanged.
    await slackCard(page).getByRole('button', { name: 'Settings for Slack' }).click();
    await expect(dialog.getByLabel('Token URL')).toHaveValue(`${provider.url}/token`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(requests).toEqual([]);
  } finally {
    await new Promise((resolve) => outsider.close(resolve));
  }
});

test('connect: to the provider and back, then Connected with scopes and expiry', async ({
  page,
  baseURL,
}) => {
  await signInAgain(page, baseURL!);
  await connectSlack(page);
  await expect(page.getByText('Connection Successful!')).toBeVisible();
  await expect(page.getByText('Successfully connected to Slack')).toBeVisible();
  // Back to the dashboard after 2 seconds, with the stored state cleared.
  await page.waitForURL(`${baseURL}/`, { timeout: 5_000 });
  expect(await page.evaluate(() => window.localStorage.getItem('oauth_state'))).toBeNull();
  expect(await page.evaluate(() => window.localStorage.getItem('oauth_provider'))).toBeNull();

  // The code was exchanged by the server, form-encoded, with the secret.
  const [exchange] = provider.grants('authorization_code');
  expect(exchange!.form).toMatchObject({
    client_id: 'steward-e2e',
    client_secret: CLIENT_SECRET,
    grant_type: 'authorization_code',
    redirect_uri: `${baseURL}/oauth/callback/slack`,
  });

  await openConnections(page);
  const card = slackCard(page);
  await expect(card.getByText('Connected', { exact: true })).toBeVisible();
  for (const scope of ['channels:read', 'chat:write', 'users:read']) {
    await expect(card.getByRole('listitem').filter({ hasText: scope })).toBeVisible();
  }
  await expect(card.getByTestId('connection-expiry')).toHaveText(EXPIRY_FORMAT);
  await expect(card.getByRole('button', { name: 'Disconnect' })).toBeVisible();

  // Usable on a phone: nothing wider than the screen.
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});

test('a connection near its expiry is refreshed on the server', async ({ page, baseURL }) => {
  await signInAgain(page, baseURL!);
  const { service, row } = await connectionRow(baseURL!);
  const nearExpiry = new Date(Date.now() + 2 * 60_000).toISOString();
  await service.from('oauth_connections').update({ expires_at: nearExpiry }).eq('id', row.id);
  const refreshesBefore = provider.grants('refresh_token').length;

  await openConnections(page);
  // The page asked the function to refresh it: an hour again.
  await expect
    .poll(async () => Date.parse((await connectionRow(baseURL!)).row.expires_at!) - Date.now())
    .toBeGreaterThan(50 * 60_000);
  expect(provider.grants('refresh_token')).toHaveLength(refreshesBefore + 1);
  // It used the refresh token issued at the exchange, which the browser never saw.
  expect(provider.grants('refresh_token').at(-1)!.form.refresh_token).toBe(
    provider.issuedRefreshTokens[0],
  );
  // The card shows the new expiry.
  const refreshed = (await connectionRow(baseURL!)).row.expires_at!;
  await expect(slackCard(page).getByTestId('connection-expiry')).toHaveText(
    format(new Date(refreshed), 'MMM dd, yyyy HH:mm'),
  );
  await expect(slackCard(page).getByText('Connected', { exact: true })).toBeVisible();
});

test('a failed refresh leaves the connection needing reconnection', async ({ page, baseURL }) => {
  await signInAgain(page, baseURL!);
  const { service, row } = await connectionRow(baseURL!);
  await service
    .from('oauth_connections')
    .update({ expires_at: new Date(Date.now() + 60_000).toISOString() })
    .eq('id', row.id);
  provider.failRefresh = true;
  try {
    await openConnections(page);
    await expect(slackCard(page).getByText('Needs reconnection')).toBeVisible();
    await expect(slackCard(page).getByRole('button', { name: 'Reconnect Slack' })).toBeEnabled();
  } finally {
    provider.failRefresh = false;
  }
  expect((await connectionRow(baseURL!)).row.needs_reconnect).toBe(true);

  // Nothing is handed out for it any more.
  const token = await page.evaluate(async () => {
    const config = (await (await fetch('/config.json')).json()) as { supabaseAnonKey: string };
    const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))!;
    const session = JSON.parse(localStorage.getItem(key)!) as { access_token: string };
    const response = await fetch('/functions/v1/oauth', {
      method: 'POST',
      headers: {
        apikey: config.supabaseAnonKey,
        Authorization: `Bearer ${session.access_token}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ action: 'token', providerId: 'slack' }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  });
  expect(token).toEqual({ status: 409, body: { error: 'Slack needs to be reconnected' } });

  // Reconnecting makes it usable again.
  await connectSlack(page);
  await expect(page.getByText('Connection Successful!')).toBeVisible();
  await openConnections(page);
  await expect(slackCard(page).getByText('Connected', { exact: true })).toBeVisible();
});

test('disconnect after confirmation', async ({ page, baseURL }) => {
  await signInAgain(page, baseURL!);
  await openConnections(page);
  await slackCard(page).getByRole('button', { name: 'Disconnect' }).click();
  const confirm = page.getByRole('dialog', { name: 'Please confirm' });
  await expect(confirm).toContainText('Are you sure you want to disconnect Slack?');
  await confirm.getByRole('button', { name: 'Disconnect' }).click();
  await expect(slackCard(page).getByRole('button', { name: 'Connect Slack' })).toBeVisible();
  await expect(slackCard(page).getByText('Connected', { exact: true })).toBeHidden();
  const { row } = await connectionRow(baseURL!);
  expect(row.is_active).toBe(false);
});

test('the provider refuses: OAuth error: access_denied', async ({ page, baseURL }) => {
  await signInAgain(page, baseURL!);
  provider.answerNextAuthorizationWith('access_denied');
  await connectSlack(page);
  await expect(page.getByRole('heading', { name: 'Connection Failed' })).toBeVisible();
  await expect(page.getByText('OAuth error: access_denied')).toBeVisible();
  await page.getByRole('button', { name: 'Return to Dashboard' }).click();
  await expect(page).toHaveURL(`${baseURL}/`);
});

test('a tampered state is refused by the browser and by the server', async ({ page, baseURL }) => {
  await signInAgain(page, baseURL!);
  const exchangesBefore = provider.grants('authorization_code').length;
  provider.tamperNextState();
  await connectSlack(page);
  await expect(page.getByRole('heading', { name: 'Connection Failed' })).toBeVisible();
  await expect(page.getByText('Invalid OAuth state')).toBeVisible();

  // The same forged state also in this browser's storage: the server's copy still refuses it.
  await page.evaluate(() => {
    localStorage.setItem('oauth_state', 'forged-state');
    localStorage.setItem('oauth_provider', 'slack');
  });
  await page.goto('/oauth/callback/slack?code=stolen-code&state=forged-state');
  await expect(page.getByRole('heading', { name: 'Connection Failed' })).toBeVisible();
  await expect(page.getByText('Invalid OAuth state')).toBeVisible();
  expect(provider.grants('authorization_code')).toHaveLength(exchangesBefore);
});

test('a return without a code: Missing required OAuth parameters', async ({ page, baseURL }) => {
  await signInAgain(page, baseURL!);
  provider.dropNextCode();
  await connectSlack(page);
  await expect(page.getByRole('heading', { name: 'Connection Failed' })).toBeVisible();
  await expect(page.getByText('Missing required OAuth parameters')).toBeVisible();
});

test('no response to the browser ever carried the client secret or a refresh token', () => {
  expect(responses.length).toBeGreaterThan(10);
  expect(provider.issuedRefreshTokens.length).toBeGreaterThan(1);
  const everything = responses.join('\n');
  expect(everything).not.toContain(CLIENT_SECRET);
  for (const refreshToken of provider.issuedRefreshTokens) {
    expect(everything).not.toContain(refreshToken);
  }
});

/** Each test has a page of its own: the same master admin signs in, and it is recorded too. */
async function signInAgain(page: Page, baseURL: string) {
  await signIn(page, baseURL, admin.email, admin.password);
  recordApiResponses(page, baseURL, responses);
}
