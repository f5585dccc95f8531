/**
 * The address of Steward's own preview of a stored file (`/preview/v1`, server/previews/), from
 * the app's signed link to it: the same token, read as its signer under row-level security, at
 * an address whose last segment is the document's name, which the browser shows as the title of
 * what it opens (its PDF viewer). Null when the link carries no token (the public link).
 */
export function previewAddress(
  signedUrl: string,
  kind: 'office' | 'file',
  documentName: string,
): string | null {
  const signed = new URL(signedUrl, window.location.href);
  const token = signed.searchParams.get('token');
  if (!token) return null;
  return `${signed.origin}/preview/v1/${kind}/${encodeURIComponent(documentName)}?token=${encodeURIComponent(token)}`;
}
