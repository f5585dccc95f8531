import {
  isIntegrationCategory,
  type IntegrationCategory,
} from '../../../config/integration-categories.ts';
import { parseTags, tagsToInput } from '../../../lib/tags.ts';
import type { IntegrationView } from './integration-view.ts';

/** The edit dialog's fields, as typed. */
export interface IntegrationDraft {
  name: string;
  description: string;
  url: string;
  category: string;
  /** Comma-separated. */
  tags: string;
  note: string;
}

/** What is saved: trimmed, tags split, an empty note as null. */
export interface IntegrationDetails {
  name: string;
  description: string;
  url: string;
  category: IntegrationCategory;
  tags: string[];
  note: string | null;
}

export type IntegrationDraftErrors = Partial<Record<keyof IntegrationDraft, string>>;

/** The starting values of a new integration (product-spec §2). */
export const NEW_INTEGRATION_DRAFT: IntegrationDraft = {
  name: 'New Integration',
  description: 'Custom integration for your organization',
  url: 'https://example.com',
  category: 'Custom',
  tags: '',
  note: '',
};

export function draftFromIntegration(integration: IntegrationView): IntegrationDraft {
  return {
    name: integration.name,
    description: integration.description,
    url: integration.url,
    category: integration.category,
    tags: tagsToInput(integration.tags),
    note: integration.note ?? '',
  };
}

/** True for an absolute http or https address with a host, e.g. `https://example.com/path`. */
export function isWebAddress(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const LIMITS = { name: 200, description: 2000, url: 2048, note: 2000 } as const;

/**
 * Checks the edit dialog (product-spec §5, Edit integration): name, description, URL and
 * category are required, the URL must be an http or https address (no `javascript:` or other
 * schemes that a link could run), the category one of the specification's list. Returns the
 * details to save, or a message per field.
 */
export function validateIntegrationDraft(
  draft: IntegrationDraft,
): { ok: true; details: IntegrationDetails } | { ok: false; errors: IntegrationDraftErrors } {
  const errors: IntegrationDraftErrors = {};
  const name = draft.name.trim();
  const description = draft.description.trim();
  const url = draft.url.trim();
  const note = draft.note.trim();
  if (!name) errors.name = 'Please enter a name.';
  else if (name.length > LIMITS.name)
    errors.name = `Please keep the name under ${LIMITS.name} characters.`;
  if (!description) errors.description = 'Please enter a description.';
  else if (description.length > LIMITS.description)
    errors.description = `Please keep the description under ${LIMITS.description} characters.`;
  if (!url) errors.url = 'Please enter the website address.';
  else if (url.length > LIMITS.url || !isWebAddress(url))
    errors.url = 'Please enter a valid web address starting with http:// or https://.';
  if (!isIntegrationCategory(draft.category)) errors.category = 'Please choose a category.';
  if (note.length > LIMITS.note)
    errors.note = `Please keep the note under ${LIMITS.note} characters.`;
  const tags = parseTags(draft.tags);
  if (tags.length > 50) errors.tags = 'Please use at most 50 tags.';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    details: {
      name,
      description,
      url,
      category: draft.category as IntegrationCategory,
      tags,
      note: note || null,
    },
  };
}
