import { describe, expect, it } from 'vitest';
import { BUILT_IN_INTEGRATIONS } from '../../../config/integrations.ts';
import { OPERATIONS_CATEGORIES } from '../../../config/operations-categories.ts';
import { customIntegrationKey, integrationKey } from './integration-key.ts';
import { integrationStats } from './integration-stats.ts';
import {
  builtInIntegrationCount,
  categoryIntegrations,
  type CustomIntegration,
  type IntegrationCustomization,
} from './integration-view.ts';

const custom = (overrides: Partial<CustomIntegration>): CustomIntegration => ({
  id: '6f1c1d2e-0000-4000-8000-000000000001',
  organization_id: 'org',
  operations_category: 'it',
  name: 'New Integration',
  description: 'Custom integration for your organization',
  url: 'https://example.com',
  category: 'Custom',
  tags: [],
  note: null,
  supports_oauth: false,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  ...overrides,
});

describe('integration keys', () => {
  it('lower-cases and hyphenates runs of other characters', () => {
    expect(integrationKey('Google Workspace')).toBe('google-workspace');
    expect(integrationKey('Tithe.ly')).toBe('tithe-ly');
    expect(integrationKey('Virginia SCC Clerk’s Information System')).toBe(
      'virginia-scc-clerk-s-information-system',
    );
  });

  it('keys every built-in integration uniquely and as the server requires', () => {
    const keys = Object.values(BUILT_IN_INTEGRATIONS)
      .flat()
      .map(({ name }) => integrationKey(name));
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(key).toMatch(/^[a-z0-9-]{1,200}$/);
  });

  it('keys a custom integration by its id', () => {
    expect(customIntegrationKey('6F1C1D2E-0000-4000-8000-000000000001')).toBe(
      'custom-6f1c1d2e-0000-4000-8000-000000000001',
    );
  });
});

describe('the built-in catalogue', () => {
  it('lists real https addresses for every category', () => {
    for (const { key } of OPERATIONS_CATEGORIES) {
      expect(BUILT_IN_INTEGRATIONS[key].length).toBeGreaterThan(0);
      for (const integration of BUILT_IN_INTEGRATIONS[key]) {
        expect(new URL(integration.url).protocol).toBe('https:');
      }
    }
  });

  it('marks exactly the seven OAuth-ready kinds, each once', () => {
    const kinds = Object.values(BUILT_IN_INTEGRATIONS)
      .flat()
      .flatMap(({ oauthKind }) => (oauthKind ? [oauthKind] : []));
    expect(kinds.sort()).toEqual([
      'accounting',
      'email-marketing',
      'payroll',
      'search-analytics',
      'team-chat',
      'video-platform',
      'workspace-suite',
    ]);
  });

  it('counts the built-in integrations of all nine categories', () => {
    expect(builtInIntegrationCount()).toBe(29);
  });
});

describe('categoryIntegrations', () => {
  it('applies a customisation to its built-in card and keeps the card identity', () => {
    const customization: IntegrationCustomization = {
      id: 'c1',
      organization_id: 'org',
      integration_key: 'squarespace',
      name: 'Our Website',
      description: 'Edited',
      url: 'https://www.gracechurch.example.org',
      category: 'Free',
      tags: ['site'],
      note: 'Login in the shared vault',
      updated_at: '2026-01-01T00:00:00Z',
    };
    const cards = categoryIntegrations('it', [customization], []);
    const card = cards.find(({ key }) => key === 'squarespace');
    expect(card).toMatchObject({
      name: 'Our Website',
      url: 'https://www.gracechurch.example.org',
      customized: true,
      source: 'built-in',
    });
    expect(cards.filter(({ customized }) => customized)).toHaveLength(1);
  });

  it('appends the custom integrations of the same category only', () => {
    const cards = categoryIntegrations(
      'it',
      [],
      [custom({ name: 'Router admin' }), custom({ id: 'x', operations_category: 'hr' })],
    );
    expect(cards.map(({ name }) => name)).toEqual([
      'Google Workspace',
      'Google Search Console',
      'Squarespace',
      'Router admin',
    ]);
  });
});

describe('integrationStats', () => {
  it('counts available tools, the OAuth-ready kinds and contacts with a name', () => {
    const cards = categoryIntegrations('it', [], [custom({ name: 'Router admin' })]);
    const contacts = new Map([
      ['google-workspace', { name: 'Pat Smith' }],
      ['squarespace', { name: '   ' }],
      [customIntegrationKey(custom({}).id), { name: 'Sam' }],
      ['not-on-this-page', { name: 'Somebody' }],
    ]);
    expect(integrationStats(cards, contacts)).toEqual({
      availableTools: 4,
      oauthReady: 2,
      activeContacts: 2,
    });
  });

  it('does not count a custom integration as OAuth ready', () => {
    const cards = categoryIntegrations(
      'branding',
      [],
      [custom({ operations_category: 'branding' })],
    );
    expect(integrationStats(cards, new Map())).toEqual({
      availableTools: 2,
      oauthReady: 0,
      activeContacts: 0,
    });
  });
});
