import sanitizeHtml from 'sanitize-html';

/**
 * What a rendered Word or Excel preview may keep (sanitize-html): text, headings, lists, tables,
 * emphasis and pictures as `data:` URLs. No scripts, event handlers, forms, frames, styles of
 * the document's own or links that leave the page: the preview is shown in a sandboxed frame
 * under a strict policy too (server/previews/), but what is not in the HTML cannot be abused by
 * a browser that gets either wrong. Runs in a background process (the renderers' caller).
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'sub',
    'sup',
    'ul',
    'ol',
    'li',
    'blockquote',
    'pre',
    'code',
    'table',
    'caption',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'a',
    'img',
    'section',
    'div',
    'span',
  ],
  allowedAttributes: {
    a: ['href', 'id'],
    img: ['src', 'alt'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
    section: ['aria-label'],
    p: ['class'],
    '*': ['id'],
  },
  allowedClasses: { p: ['preview-note'] },
  // Pictures only from the document itself; no URL of any scheme anywhere else.
  allowedSchemes: [],
  allowedSchemesByTag: { img: ['data'] },
  allowProtocolRelative: false,
  transformTags: {
    // Footnotes and bookmarks link within the page (mammoth names them with word characters);
    // any other link keeps its text only.
    a: (tagName, attribs) => {
      const kept: sanitizeHtml.Attributes = {};
      if (/^#[\w.-]+$/.test(attribs.href ?? '')) kept.href = attribs.href!;
      if (attribs.id) kept.id = attribs.id;
      return { tagName, attribs: kept };
    },
  },
  // A picture whose data is not one of the raster types browsers show without script is dropped.
  exclusiveFilter: (frame) =>
    frame.tag === 'img' &&
    !/^data:image\/(png|jpeg|gif|webp|bmp);base64,/i.test(frame.attribs.src ?? ''),
};

/** The HTML a preview may show, from what a renderer made of a member's file. */
export function sanitizePreview(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
