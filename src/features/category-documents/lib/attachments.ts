/** The size above which the e-mail dialog warns about its attachments (product-spec §5, §9). */
export const ATTACHMENT_WARNING_BYTES = 25 * 1024 * 1024;

/** The total size in bytes of the attachments. */
export function totalAttachmentSize(documents: readonly { size: number }[]): number {
  return documents.reduce((total, document) => total + (Number(document.size) || 0), 0);
}

/** True when attachments are selected and together exceed 25MB. */
export function attachmentsTooLarge(documents: readonly { size: number }[]): boolean {
  return documents.length > 0 && totalAttachmentSize(documents) > ATTACHMENT_WARNING_BYTES;
}
