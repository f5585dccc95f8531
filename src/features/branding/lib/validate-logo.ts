/** The logo limits of product-spec §5 and §9. */
export const MAX_LOGO_BYTES = 1024 * 1024;

/**
 * Why `file` cannot be the logo, in the specification's words, or null when it can. Some
 * systems report no type for an .svg file, so the extension is accepted then.
 */
export function logoFileProblem(file: Pick<File, 'name' | 'type' | 'size'>): string | null {
  const isSvg =
    file.type === 'image/svg+xml' || (file.type === '' && /\.svg$/i.test(file.name.trim()));
  if (!isSvg) return 'Please upload an SVG file only.';
  if (file.size >= MAX_LOGO_BYTES) return 'File size must be less than 1MB.';
  return null;
}
