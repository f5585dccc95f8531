/**
 * Copies `text` to the clipboard. The Clipboard API is missing on plain-http origins and may be
 * refused; then the text is selected in `fallbackInput` and copied the old way. Returns false
 * when neither worked (the text is left selected for the user to copy by hand).
 */
export async function copyText(
  text: string,
  fallbackInput: HTMLInputElement | null,
): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Fall through to the selection-based copy.
  }
  if (!fallbackInput) return false;
  fallbackInput.focus();
  fallbackInput.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  }
}
