import type { DocumentCategory } from '../../../config/document-categories.ts';
import { parseTags, tagsToInput } from '../../../lib/tags.ts';
import type { DocumentProperties, DocumentRecord } from '../../../lib/documents.ts';

/** Form text of the property fields. */
export interface PropertyInput {
  category: string;
  expiryDate: string;
  tags: string;
  description: string;
}

/**
 * The properties to save from the form's text (spec §5): tags split on commas, trimmed, empties
 * dropped; an empty expiry date or description becomes null.
 */
export function toDocumentProperties(
  input: PropertyInput & { category: DocumentCategory },
): DocumentProperties {
  const description = input.description.trim();
  return {
    category: input.category,
    expiry_date: input.expiryDate || null,
    tags: parseTags(input.tags),
    description: description ? input.description : null,
  };
}

/** The form text for a stored document. */
export function toPropertyInput(
  document: Pick<DocumentRecord, 'category' | 'expiry_date' | 'tags' | 'description'>,
): PropertyInput {
  return {
    category: document.category,
    expiryDate: document.expiry_date?.slice(0, 10) ?? '',
    tags: tagsToInput(document.tags),
    description: document.description ?? '',
  };
}

export const EMPTY_PROPERTY_INPUT: PropertyInput = {
  category: '',
  expiryDate: '',
  tags: '',
  description: '',
};

/**
 * Whether the form has a category (the select offers only the organisation's categories the
 * member may upload into; the database decides whether it may go there).
 */
export function hasCategory(
  input: PropertyInput,
): input is PropertyInput & { category: DocumentCategory } {
  return input.category !== '';
}

/** The longest name a document may have (the database's limit). */
export const MAX_NAME_LENGTH = 500;

/**
 * The name to save from the Name field: trimmed, and keeping the original's extension when the
 * new name drops it (`Minutes` for `notes.pdf` becomes `Minutes.pdf`), so the file still opens
 * as what it is. Null when nothing but spaces is left.
 */
export function renamedTo(input: string, original: string): string | null {
  const name = input.trim();
  if (!name) return null;
  const extension = /\.[A-Za-z0-9]{1,10}$/.exec(original)?.[0];
  if (extension && !name.toLowerCase().endsWith(extension.toLowerCase())) {
    return `${name}${extension}`;
  }
  return name;
}
