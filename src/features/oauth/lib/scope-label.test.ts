import { describe, expect, it } from 'vitest';
import { OAUTH_PROVIDERS } from '../providers.ts';
import { scopeLabel } from './scope-label.ts';

describe('scopeLabel', () => {
  it.each([
    ['https://www.googleapis.com/auth/drive.readonly', 'drive.readonly'],
    ['https://graph.microsoft.com/Files.Read.All', 'Files.Read.All'],
    ['https://www.googleapis.com/auth/youtube.upload/', 'youtube.upload'],
    ['channels:read', 'channels:read'],
    ['com.intuit.quickbooks.accounting', 'com.intuit.quickbooks.accounting'],
    ['offline_access', 'offline_access'],
  ])('shows %s as %s', (scope, label) => {
    expect(scopeLabel(scope)).toBe(label);
  });

  it('keeps a scope that is only slashes readable', () => {
    expect(scopeLabel('/')).toBe('/');
  });
});

describe('the provider catalogue', () => {
  const byId = new Map(OAUTH_PROVIDERS.map((p) => [p.id, p]));

  it('has ten providers with unique ids, each with the fields of the specification', () => {
    expect(OAUTH_PROVIDERS).toHaveLength(10);
    expect(byId.size).toBe(10);
    for (const provider of OAUTH_PROVIDERS) {
      expect(provider.name).not.toBe('');
      expect(provider.description).not.toBe('');
      expect(provider.supportsOAuth).toBe(true);
      expect(provider.authorizeUrl).toMatch(/^https:\/\//);
      expect(provider.tokenUrl).toMatch(/^https:\/\//);
    }
  });

  it('names the categories and scopes of the specification', () => {
    expect(Object.fromEntries(OAUTH_PROVIDERS.map((p) => [p.name, p.category]))).toEqual({
      'Google Workspace': 'Productivity',
      'Google Search Console': 'Analytics',
      YouTube: 'Video Platform',
      'Microsoft 365': 'Productivity',
      'QuickBooks Online': 'Accounting',
      Slack: 'Communication',
      Mailchimp: 'Marketing',
      Gusto: 'Payroll',
      BambooHR: 'HRIS',
      GitHub: 'Development',
    });
    expect(byId.get('slack')!.scopes).toEqual(['channels:read', 'chat:write', 'users:read']);
    expect(byId.get('github')!.scopes).toEqual(['repo', 'user:email', 'read:org']);
    expect(byId.get('quickbooks')!.scopes).toEqual(['com.intuit.quickbooks.accounting']);
    expect(byId.get('youtube')!.scopes).toContain('https://www.googleapis.com/auth/youtube.upload');
    expect(byId.get('microsoft-365')!.authorizeUrl).toBe(
      'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
    );
  });

  it('asks only read-only access where the specification says so', () => {
    for (const id of ['google-workspace', 'google-search-console']) {
      for (const scope of byId.get(id)!.scopes) expect(scope).toMatch(/\.readonly$/);
    }
    for (const scope of byId.get('microsoft-365')!.scopes) {
      expect(scope).toMatch(/\.Read(\.All)?$|^offline_access$/);
    }
    for (const id of ['gusto', 'bamboohr']) {
      for (const scope of byId.get(id)!.scopes) expect(scope).not.toMatch(/write/);
    }
  });
});
