/**
 * How a rendered preview may be shown: nothing but its own inline styles and `data:` pictures,
 * in a sandbox (no script, no forms, no navigation of the app, an origin of its own), framed by
 * the app's own pages only.
 */
export const PREVIEW_POLICY =
  "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox; frame-ancestors 'self'";

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// Readable at 375 px as at 1366: long words wrap, wide tables scroll sideways on their own.
const STYLE = `
body{margin:0;padding:16px;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111827;background:#fff;overflow-wrap:anywhere}
h1,h2,h3,h4,h5,h6{line-height:1.25;margin:1.2em 0 .5em}
h1{font-size:1.6em}h2{font-size:1.35em}h3{font-size:1.15em}
img{max-width:100%;height:auto}
section{overflow-x:auto;margin-bottom:24px}
table{border-collapse:collapse;margin:8px 0;font-size:14px}
td,th{border:1px solid #d1d5db;padding:4px 8px;vertical-align:top;min-width:3em}
td>p,th>p{margin:0}
tr:nth-child(even) td{background:#f9fafb}
.preview-note{color:#92400e;background:#fffbeb;border:1px solid #fde68a;border-radius:4px;padding:6px 10px;font-size:14px}
`;

/** The page of a rendered preview, titled with the document's current name. */
export function previewPage(name: string, html: string): Response {
  const page =
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(name)}</title><style>${STYLE}</style></head>` +
    `<body><main>${html}</main></body></html>`;
  return new Response(page, {
    status: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': PREVIEW_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
    },
  });
}
