/** Text as HTML: the five characters that could end an element or an attribute. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A link whose address and text are escaped; only http(s) addresses become links. */
export function htmlLink(url: string, text: string = url): string {
  if (!/^https?:\/\//i.test(url)) return escapeHtml(text);
  return `<a href="${escapeHtml(url)}" style="color:#1d4ed8">${escapeHtml(text)}</a>`;
}

/**
 * A whole HTML message: one column, inline styles only (mail clients drop style sheets), and
 * the footer line that the text part ends with too.
 */
export function htmlDocument(title: string, body: string, footer: string): string {
  return [
    '<!doctype html>',
    '<html><head><meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f8fafc;font-family:Arial,Helvetica,sans-serif;color:#0f172a">',
    '<div style="max-width:640px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:8px;padding:24px">',
    body,
    `<p style="margin-top:24px;font-size:12px;color:#64748b">${escapeHtml(footer)}</p>`,
    '</div></body></html>',
  ].join('\n');
}
