/** A document just uploaded, as the documents list marks it. */
export interface UploadedDocument {
  id: string;
  name: string;
}

/**
 * The navigation state that takes the documents list to what an upload added (see
 * `uploadedDocumentsOf`): kept in the browser's history entry, so reload and Back keep the marks
 * while a link to the list, shared or typed, has none.
 */
export function uploadedState(documents: readonly UploadedDocument[]): {
  uploaded: UploadedDocument[];
} {
  return { uploaded: documents.map(({ id, name }) => ({ id, name })) };
}

/** The documents an upload added, from a location's state; none when it carries none. */
export function uploadedDocumentsOf(state: unknown): UploadedDocument[] {
  if (typeof state !== 'object' || state === null || !('uploaded' in state)) return [];
  const { uploaded } = state as { uploaded: unknown };
  if (!Array.isArray(uploaded)) return [];
  return uploaded.filter(
    (item): item is UploadedDocument =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as UploadedDocument).id === 'string' &&
      typeof (item as UploadedDocument).name === 'string',
  );
}
