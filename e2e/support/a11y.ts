import AxeBuilder from '@axe-core/playwright';
import {
  expect,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from '@playwright/test';
import { apiClient, serverConfig, uniqueEmail } from './api.ts';
import { makeDocx, makePdf, makePng } from './documents.ts';
import { serviceClient } from './oauth.ts';
import { test as common } from './test.ts';
import {
  addMember,
  createOrganization,
  PASSWORD,
  type Organization,
  type Person,
} from './operations.ts';

/** What an accessibility scan found, as printed in the test output. */
interface Finding {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** Impacts that fail a scan: the issue's bar is no serious or critical violation. */
const FAILING_IMPACTS = new Set(['serious', 'critical']);

/**
 * Runs axe-core (WCAG 2.0/2.1 A and AA rules plus best practices) on the page, or only inside
 * `include` (a dialog, say). Every rule it reports is printed with its impact; the scan fails
 * on any serious or critical one.
 */
export async function expectAccessible(page: Page, label: string, include?: string) {
  let builder = new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    // Only violations are reported, and the scan runs in the page itself rather than finishing
    // in a new blank page: both keep each scan quick.
    .options({ resultTypes: ['violations'] })
    .setLegacyMode(true);
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  const findings: Finding[] = violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact ?? 'unknown',
    help: violation.help,
    nodes: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
  }));
  if (findings.length > 0) {
    console.log(
      `axe on ${label}:\n${findings
        .map((f) => `  [${f.impact}] ${f.id}: ${f.help}\n    ${f.nodes.join('\n    ')}`)
        .join('\n')}`,
    );
  }
  common.info().annotations.push({
    type: 'axe',
    description: `${label}: ${findings.length ? findings.map((f) => `${f.id} (${f.impact})`).join(', ') : 'no findings'}`,
  });
  const failing = findings.filter((finding) => FAILING_IMPACTS.has(finding.impact));
  expect.soft(failing, `serious or critical axe violations on ${label}`).toEqual([]);
}

/**
 * Every form field in `scope` that is shown has an accessible name (a label, aria-label or
 * aria-labelledby), checked one by one so a failure names the field.
 */
export async function expectLabelledControls(scope: Locator) {
  const fields = scope.locator(
    'input:not([type="hidden"]):visible, select:visible, textarea:visible',
  );
  for (const field of await fields.all()) {
    await expect.soft(field).toHaveAccessibleName(/\S/);
  }
}

/**
 * Status colours (green, yellow, amber, red, orange badges and banners) always come with words:
 * every visible element tinted so, and not hidden from assistive technology, has text or a
 * label of its own.
 */
export async function expectBadgesCarryText(scope: Locator) {
  const mute = await scope.evaluate((root) => {
    const tinted = /\bbg-(green|yellow|amber|red|orange)-(50|100|200)\b/;
    return Array.from(root.querySelectorAll<HTMLElement>('[class]'))
      .filter((element) => tinted.test(element.getAttribute('class') ?? ''))
      .filter((element) => element.checkVisibility() && !element.closest('[aria-hidden="true"]'))
      .filter((element) => !element.innerText.trim() && !element.getAttribute('aria-label'))
      .map((element) => element.outerHTML.slice(0, 160));
  });
  expect.soft(mute, 'status colours without words').toEqual([]);
}

/** Waits until a page has settled: its heading is shown and no spinner or skeleton is left. */
export async function settled(page: Page, heading: string | RegExp, level = 1) {
  await expect(page.getByRole('heading', { name: heading, level }).first()).toBeVisible();
  await expect(page.locator('[role="status"]').filter({ hasText: /Loading/ })).toHaveCount(0);
  await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0);
}

/** The dialog that is open now (the innermost one when several are). */
export function openDialog(page: Page, name?: string | RegExp): Locator {
  return name ? page.getByRole('dialog', { name }) : page.getByRole('dialog').last();
}

/**
 * A browser context in which `person` is signed in: a session of its own (so its refresh token
 * is nobody else's) is put where supabase-js keeps it before any page script runs.
 */
export async function signedInContext(
  browser: Browser,
  baseURL: string,
  person: { email: string; password: string },
  viewport = { width: 1280, height: 800 },
): Promise<BrowserContext> {
  const api = await apiClient(baseURL);
  const { data, error } = await api.auth.signInWithPassword(person);
  if (error || !data.session) throw error ?? new Error('sign-in returned no session');
  const { supabaseUrl } = await serverConfig(baseURL);
  const storageKey = `sb-${new URL(supabaseUrl).hostname.split('.')[0]}-auth-token`;
  const context = await browser.newContext({ baseURL, viewport });
  await context.addInitScript(
    ([key, value]) => {
      if (!window.localStorage.getItem(key!)) window.localStorage.setItem(key!, value!);
    },
    [storageKey, JSON.stringify(data.session)],
  );
  return context;
}

/** Today plus `days`, as `yyyy-MM-dd` in UTC (expiry dates are calendar dates in UTC). */
function utcDate(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

const stamp = Date.now().toString(36);

/** The files of every preview kind, each with an expiry that gives a different badge. */
export const SAMPLE_FILES = {
  pdf: {
    // Long enough that a dashboard list must shorten it on a phone rather than widen the page.
    name: `Insurance policy and certificate of cover ${stamp}.pdf`,
    type: 'application/pdf',
    bytes: makePdf('Insurance policy'),
    category: 'Legal',
    expiry: utcDate(-5),
    tags: ['legal', 'worship', 'insurance', 'annual'],
  },
  image: {
    name: `Church logo ${stamp}.png`,
    type: 'image/png',
    bytes: makePng(),
    category: 'Branding',
    expiry: utcDate(10),
    tags: ['worship'],
  },
  text: {
    name: `Meeting notes ${stamp}.txt`,
    type: 'text/plain',
    bytes: Buffer.from('Elder board meeting\n- budget approved\n'),
    category: 'Legal',
    expiry: utcDate(120),
    tags: ['elder-board'],
  },
  office: {
    name: `Minutes ${stamp}.docx`,
    type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    bytes: makeDocx('Minutes'),
    category: 'Governance',
    expiry: null,
    tags: ['legal'],
  },
  other: {
    name: `Archive ${stamp}.zip`,
    type: 'application/zip',
    bytes: Buffer.from('PK\x05\x06' + '\0'.repeat(18), 'latin1'),
    category: 'Other',
    expiry: null,
    tags: [],
  },
} as const;

export type SampleKind = keyof typeof SAMPLE_FILES;

/** Everything the accessibility and mobile specs look at, seeded through the API. */
export interface SeededWorld {
  organization: Organization;
  member: Person;
  deactivated: Person;
  withoutOrganization: Person;
  /** A link to a pending invitation, for the accept-invitation page. */
  invitationLink: string;
}

/**
 * An organisation with documents of every preview kind (overdue, soon and ok expiries), a plain
 * member, a deactivated member, pending and expired invitations, a corporate status with an
 * overdue filing, a saved contact, two OAuth connections (one needing reconnection), and a
 * signed-up user who has no organisation.
 */
export async function seedWorld(baseURL: string, label: string): Promise<SeededWorld> {
  const organization = await createOrganization(baseURL, label);
  const admin = organization.masterAdmin.api;
  const member = await addMember(baseURL, organization, 'user');
  const deactivated = await addMember(baseURL, organization, 'user');

  const { data: profile } = await admin.auth.getUser();
  const masterAdminId = profile.user!.id;

  for (const file of Object.values(SAMPLE_FILES)) {
    const extension = file.name.split('.').pop();
    const objectName = `documents/${organization.id}/${Date.now()}-${Math.random().toString(36).slice(2, 10)}.${extension}`;
    const stored = await admin.storage
      .from('documents')
      .upload(objectName, file.bytes, { contentType: file.type, upsert: false });
    if (stored.error) throw new Error(stored.error.message);
    const inserted = await admin.from('documents').insert({
      organization_id: organization.id,
      name: file.name,
      category: file.category as never,
      size: file.bytes.length,
      status: 'Active',
      file_path: objectName,
      tags: [...file.tags],
      expiry_date: file.expiry,
      description: `Sample ${extension} file`,
    });
    if (inserted.error) throw new Error(inserted.error.message);
  }

  const invite = async (email: string) => {
    const { data, error } = await admin.rpc('invite_user', {
      email,
      role: 'admin',
      full_name: 'Ruth Pending',
    });
    if (error) throw new Error(error.message);
    return (data as unknown as { token: string }).token;
  };
  const token = await invite(uniqueEmail('pending'));
  const expiredEmail = uniqueEmail('expired');
  await invite(expiredEmail);

  const deactivatedId = (await deactivated.api.auth.getUser()).data.user!.id;
  const off = await admin.rpc('deactivate_user', { user_id: deactivatedId });
  if (off.error) throw new Error(off.error.message);

  const corporate = await admin.from('corporate_status').upsert({
    organization_id: organization.id,
    entity_name: `${label} Community Church`,
    entity_type: 'Non-Profit Corporation',
    status: 'Active',
    filing_date: utcDate(-400),
    next_due_date: utcDate(-3),
    annual_report_status: 'Overdue',
  });
  if (corporate.error) throw new Error(corporate.error.message);

  const contact = await admin.from('integration_contacts').upsert(
    {
      organization_id: organization.id,
      integration_key: 'docusign',
      name: 'Dana Signer',
      title: 'Account manager',
      email: 'dana@docusign.example',
      phone: '+1 555 0100',
      company: 'Legal',
      notes: 'Renewal every January.',
    },
    { onConflict: 'organization_id,integration_key' },
  );
  if (contact.error) throw new Error(contact.error.message);

  const service = await serviceClient(baseURL);
  const expired = await service
    .from('user_invitations')
    .update({ expires_at: new Date(Date.now() - 60_000).toISOString() })
    .eq('email', expiredEmail);
  if (expired.error) throw new Error(expired.error.message);
  const connections = await service.from('oauth_connections').insert([
    {
      provider_id: 'slack',
      user_id: masterAdminId,
      organization_id: organization.id,
      expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      scopes: ['channels:read', 'chat:write', 'users:read'],
      is_active: true,
      needs_reconnect: false,
    },
    {
      provider_id: 'github',
      user_id: masterAdminId,
      organization_id: organization.id,
      expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      scopes: ['repo', 'user:email', 'read:org'],
      is_active: true,
      needs_reconnect: true,
    },
  ]);
  if (connections.error) throw new Error(connections.error.message);

  const loneEmail = uniqueEmail('lone');
  const lone = await apiClient(baseURL);
  const signUp = await lone.auth.signUp({ email: loneEmail, password: PASSWORD });
  if (signUp.error) throw signUp.error;

  return {
    organization,
    member,
    deactivated,
    withoutOrganization: { email: loneEmail, password: PASSWORD, api: lone },
    invitationLink: `${baseURL}/invite/${token}`,
  };
}

/** The pages a master admin of an organisation named `name` visits, with the heading of each. */
export function adminPages(name: string): { path: string; heading: string | RegExp }[] {
  return [
    { path: '/', heading: name },
    { path: '/documents', heading: 'Documents' },
    { path: '/upload', heading: 'Upload Documents' },
    { path: '/operations', heading: 'Operations Center' },
    { path: '/operations/legal', heading: 'Legal Compliance' },
    { path: '/operations/accounting', heading: 'Financial Operations' },
    { path: '/operations/it', heading: 'IT & Technology' },
    { path: '/operations/no-such-category', heading: 'Category Not Found' },
    { path: '/department/worship', heading: 'Worship Ministry' },
    { path: '/department/elder-board', heading: 'Elder Board' },
    { path: '/department/no-such-department', heading: 'Department Not Found' },
    { path: '/users', heading: 'User Management' },
    { path: '/oauth', heading: 'OAuth Connections' },
    { path: '/oauth/callback/x?error=access_denied', heading: 'Connection Failed' },
    { path: '/reminders', heading: 'Reminders' },
    { path: '/outbox', heading: /Outbox/ },
    { path: '/documents?expiry=soon&sort=expiry_date', heading: 'Documents' },
    { path: '/no-such-page', heading: 'Page not found' },
  ];
}

/**
 * The paths of `adminPages` in groups of at most `size`, in their order: one test per group
 * keeps each test short (a scan or screenshot of a page costs seconds of CPU in Chromium) while
 * every page stays covered.
 */
export function adminPageGroups(size: number): string[][] {
  const paths = adminPages('').map((page) => page.path);
  const groups: string[][] = [];
  for (let start = 0; start < paths.length; start += size) {
    groups.push(paths.slice(start, start + size));
  }
  return groups;
}

/** This worker process's world, seeded by the first test that needs it. */
let seeded: Promise<SeededWorld> | undefined;

/**
 * The accessibility and mobile specs' `test`. `world` is seeded through the API once per worker
 * process and kept in this module (a worker that replaces one after a failure seeds its own);
 * it is a test-scoped fixture over that module state rather than a worker-scoped one, since
 * Playwright runs tests with different worker fixtures in different worker processes and would
 * start a new worker and browser each time the run moves between these specs and the others.
 * `adminPage` is a page of a fresh context in which the world's master admin is signed in, at
 * `adminViewport`: no test depends on another's page or order, so they may run in parallel.
 */
export const test = common.extend<{
  world: SeededWorld;
  adminPage: Page;
  adminViewport: { width: number; height: number };
}>({
  world: async ({ baseURL }, use) => {
    seeded ??= seedWorld(baseURL!, 'Access').catch((error: unknown) => {
      seeded = undefined;
      throw error;
    });
    await use(await seeded);
  },
  adminViewport: [{ width: 1280, height: 800 }, { option: true }],
  adminPage: async ({ browser, baseURL, world, adminViewport }, use) => {
    const context = await signedInContext(
      browser,
      baseURL!,
      world.organization.masterAdmin,
      adminViewport,
    );
    await use(await context.newPage());
    await context.close();
  },
});
