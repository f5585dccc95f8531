import { describe, expect, it } from 'vitest';
import {
  NEW_INTEGRATION_DRAFT,
  isWebAddress,
  validateIntegrationDraft,
  type IntegrationDraft,
} from './integration-draft.ts';

const valid: IntegrationDraft = {
  name: ' Church Center ',
  description: ' The congregation app ',
  url: ' https://churchcenter.com/home ',
  category: 'Scheduling',
  tags: 'app, , members ,',
  note: '  ',
};

describe('isWebAddress', () => {
  it.each([
    'https://example.com',
    'http://example.com/path?x=1#top',
    'https://sub.example.org:8443',
  ])('accepts %s', (url) => expect(isWebAddress(url)).toBe(true));

  it.each([
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'ftp://example.com/file',
    'mailto:someone@example.com',
    'example.com',
    'www.example.com',
    'https://',
    'https://exa mple.com',
    '',
  ])('rejects %s', (url) => expect(isWebAddress(url)).toBe(false));
});

describe('validateIntegrationDraft', () => {
  it('trims the fields, splits the tags and stores an empty note as null', () => {
    expect(validateIntegrationDraft(valid)).toEqual({
      ok: true,
      details: {
        name: 'Church Center',
        description: 'The congregation app',
        url: 'https://churchcenter.com/home',
        category: 'Scheduling',
        tags: ['app', 'members'],
        note: null,
      },
    });
  });

  it('accepts the defaults of a new integration', () => {
    expect(validateIntegrationDraft(NEW_INTEGRATION_DRAFT)).toMatchObject({
      ok: true,
      details: {
        name: 'New Integration',
        description: 'Custom integration for your organization',
        category: 'Custom',
      },
    });
  });

  it('requires name, description, URL and category, each with its own message', () => {
    const result = validateIntegrationDraft({
      name: ' ',
      description: '',
      url: '',
      category: '',
      tags: '',
      note: '',
    });
    expect(result).toEqual({
      ok: false,
      errors: {
        name: 'Please enter a name.',
        description: 'Please enter a description.',
        url: 'Please enter the website address.',
        category: 'Please choose a category.',
      },
    });
  });

  it('rejects a URL that is not http or https', () => {
    const result = validateIntegrationDraft({ ...valid, url: 'javascript:alert(document.cookie)' });
    expect(result).toEqual({
      ok: false,
      errors: { url: 'Please enter a valid web address starting with http:// or https://.' },
    });
  });

  it('rejects a category outside the specification list', () => {
    expect(validateIntegrationDraft({ ...valid, category: 'Marketing' })).toEqual({
      ok: false,
      errors: { category: 'Please choose a category.' },
    });
  });

  it('rejects over-long values before the server would', () => {
    const result = validateIntegrationDraft({ ...valid, name: 'x'.repeat(201) });
    expect(result.ok).toBe(false);
  });
});
