import { errorMessage } from '../../../lib/errors.ts';
import type { DocumentProperties, DocumentRecord } from '../../../lib/documents.ts';
import { insertDocument } from './insert-document.ts';
import { newDocumentObjectName } from './object-name.ts';
import { removeDocumentFiles, storeDocumentFile, type StoreFileOptions } from './store-file.ts';

/**
 * Uploads one file: its bytes to the organisation's folder, then its row. If the row cannot be
 * written, the stored bytes are removed again, so a failure leaves neither a row without a file
 * nor an invisible file behind. Returns the new document's row.
 */
export async function uploadDocument(
  file: File,
  properties: DocumentProperties,
  organizationId: string,
  options: StoreFileOptions = {},
): Promise<DocumentRecord> {
  if (file.size === 0) throw new Error('The file is empty');
  const objectName = newDocumentObjectName(organizationId, file.name);
  await storeDocumentFile(objectName, file, options);
  try {
    return await insertDocument({
      ...properties,
      organization_id: organizationId,
      name: file.name,
      size: file.size,
      file_path: objectName,
    });
  } catch (error) {
    await removeDocumentFiles([objectName]).catch(() => {
      // The row failure is what the user needs to hear about; the cleanup is best effort.
    });
    throw new Error(errorMessage(error, 'Upload failed'));
  }
}
