/**
 * A `data:` URL for SVG bytes, for an <img> (where an SVG's scripts never run). A data URL rather
 * than an object URL: nothing to release, and the stored type does not matter.
 */
export function svgDataUrl(bytes: ArrayBuffer): string {
  return imageDataUrl(bytes, 'image/svg+xml');
}

/** A `data:` URL of `type` for image bytes (the PNG logo the server made). */
export function imageDataUrl(bytes: ArrayBuffer, type: string): string {
  const view = new Uint8Array(bytes);
  let binary = '';
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let start = 0; start < view.length; start += 0x8000) {
    binary += String.fromCharCode(...view.subarray(start, start + 0x8000));
  }
  return `data:${type};base64,${btoa(binary)}`;
}
