/**
 * The bytes behind a signed or public link (the preview shows what the link serves). Throws
 * `Failed to load document` when the link does not answer with the file.
 */
export async function fetchLinkedFile(url: string, signal?: AbortSignal): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(url, { signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new Error('Failed to load document');
  }
  if (!response.ok) throw new Error('Failed to load document');
  return response.blob();
}
