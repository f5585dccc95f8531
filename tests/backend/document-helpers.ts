import { randomBytes } from 'node:crypto';
import type { Organisation, Person } from '../security/world.ts';
import { unwrap } from '../security/world.ts';

export interface StoredDocument {
  id: string;
  name: string;
  file_path: string;
  expiry_date: string | null;
  responsible_id: string | null;
}

/** A new object name in the organisation's folder, as the app makes them. */
export const newFilePath = (organisation: Organisation, extension = 'txt') =>
  `documents/${organisation.id}/${Date.now()}-${randomBytes(4).toString('hex')}.${extension}`;

/** Uploads a file to the documents bucket as `person`, as the upload page does. */
export async function uploadFile(
  person: Person,
  organisation: Organisation,
  content: string | Uint8Array,
  contentType = 'text/plain;charset=UTF-8',
  extension = 'txt',
): Promise<string> {
  const filePath = newFilePath(organisation, extension);
  unwrap(
    await person.client.storage
      .from('documents')
      .upload(filePath, typeof content === 'string' ? new TextEncoder().encode(content) : content, {
        contentType,
      }),
    `upload ${filePath}`,
  );
  return filePath;
}

/** A document with a real file, uploaded and recorded by `person` as the app does. */
export async function uploadDocument(
  person: Person,
  organisation: Organisation,
  document: {
    name: string;
    content?: string;
    expiry_date?: string | null;
    category?: string;
    tags?: string[];
    responsible_id?: string | null;
  },
): Promise<StoredDocument> {
  const content = document.content ?? `The contents of ${document.name}`;
  const filePath = await uploadFile(person, organisation, content);
  return unwrap(
    await person.client
      .from('documents')
      .insert({
        organization_id: organisation.id,
        name: document.name,
        category: document.category ?? 'Legal',
        file_path: filePath,
        size: new TextEncoder().encode(content).byteLength,
        status: 'Active',
        tags: document.tags ?? [],
        expiry_date: document.expiry_date ?? null,
        description: null,
        ...(document.responsible_id !== undefined
          ? { responsible_id: document.responsible_id }
          : {}),
      })
      .select('*')
      .single(),
    `insert ${document.name}`,
  ) as StoredDocument;
}
