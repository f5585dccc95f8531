/** The logo limits of product-spec §5 and §9: an SVG under 1MB. */
export const MAX_LOGO_BYTES = 1024 * 1024;
/** An image the server makes into the logo (issue 24): the bucket's limit, 5 MiB. */
export const MAX_LOGO_IMAGE_BYTES = 5 * 1024 * 1024;

/** The images the server converts into the logo (PNG, JPEG, WebP), by their type. */
export const LOGO_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/webp'];

/** Whether `file` is an image the server converts, rather than an SVG stored as it is. */
export function isLogoImage(file: Pick<File, 'type'>): boolean {
  return LOGO_IMAGE_TYPES.includes(file.type);
}

/**
 * Why `file` cannot be the logo, in the specification's words, or null when it can. Some
 * systems report no type for an .svg file, so the extension is accepted then.
 */
export function logoFileProblem(file: Pick<File, 'name' | 'type' | 'size'>): string | null {
  if (isLogoImage(file)) {
    return file.size >= MAX_LOGO_IMAGE_BYTES ? 'File size must be less than 5MB.' : null;
  }
  const isSvg =
    file.type === 'image/svg+xml' || (file.type === '' && /\.svg$/i.test(file.name.trim()));
  if (!isSvg) return 'Please upload an SVG, PNG, JPEG or WebP file.';
  if (file.size >= MAX_LOGO_BYTES) return 'File size must be less than 1MB.';
  return null;
}
