import type { ContactDetails } from '../api/save-integration-contact.ts';
import type { IntegrationContact } from './integration-view.ts';

/** The contact form's fields, as typed. */
export type ContactDraft = Record<keyof ContactDetails, string>;
export type ContactDraftErrors = Partial<Record<keyof ContactDetails, string>>;

export const CONTACT_FIELDS: readonly { field: keyof ContactDetails; label: string }[] = [
  { field: 'name', label: 'Name' },
  { field: 'title', label: 'Title' },
  { field: 'email', label: 'Email' },
  { field: 'phone', label: 'Phone' },
  { field: 'company', label: 'Department/Team' },
  { field: 'notes', label: 'Notes' },
];

const LIMITS: Record<keyof ContactDetails, number> = {
  name: 200,
  title: 200,
  email: 254,
  phone: 50,
  company: 200,
  notes: 5000,
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function draftFromContact(contact: IntegrationContact | undefined): ContactDraft {
  return {
    name: contact?.name ?? '',
    title: contact?.title ?? '',
    email: contact?.email ?? '',
    phone: contact?.phone ?? '',
    company: contact?.company ?? '',
    notes: contact?.notes ?? '',
  };
}

/**
 * Checks the contact form: every field optional (only the name counts as an active contact),
 * an e-mail address well-formed when given, lengths within what the server stores. Empty
 * fields are saved as null.
 */
export function validateContactDraft(
  draft: ContactDraft,
): { ok: true; details: ContactDetails } | { ok: false; errors: ContactDraftErrors } {
  const errors: ContactDraftErrors = {};
  const details = {} as ContactDetails;
  for (const { field, label } of CONTACT_FIELDS) {
    const value = draft[field].trim();
    if (value.length > LIMITS[field]) {
      errors[field] = `Please keep ${label.toLowerCase()} under ${LIMITS[field]} characters.`;
    }
    details[field] = value || null;
  }
  if (details.email && !errors.email && !EMAIL.test(details.email)) {
    errors.email = 'Please enter a valid email address.';
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, details };
}
