/**
 * Word documents for the preview tests, made on the spot (fflate): real OOXML with the parts
 * Word writes for headings (styles), lists (numbering), tables, embedded and linked pictures and
 * hyperlinks, which mammoth reads as Word's own files.
 */
import { strToU8, zipSync } from 'fflate';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A 2 × 2 red PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** One paragraph of text, with a style (e.g. `Heading1`) and list numbering when given. */
export const paragraph = (text: string, options: { style?: string; list?: boolean } = {}) =>
  `<w:p><w:pPr>${options.style ? `<w:pStyle w:val="${options.style}"/>` : ''}${
    options.list ? '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>' : ''
  }</w:pPr><w:r><w:t xml:space="preserve">${escape(text)}</w:t></w:r></w:p>`;

/** A table of text cells. */
export const table = (rows: string[][]) =>
  `<w:tbl><w:tblPr/>${rows
    .map((row) => `<w:tr>${row.map((cell) => `<w:tc>${paragraph(cell)}</w:tc>`).join('')}</w:tr>`)
    .join('')}</w:tbl>`;

/** A picture: `r:embed` of a part of the file, or `r:link` to an address outside it. */
export const picture = (relationshipId: string, description: string, linked = false) =>
  `<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing">` +
  `<wp:extent cx="190500" cy="190500"/><wp:docPr id="1" name="Picture" descr="${escape(description)}"/>` +
  `<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">` +
  `<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="1" name="p"/><pic:cNvPicPr/></pic:nvPicPr>` +
  `<pic:blipFill><a:blip ${linked ? 'r:link' : 'r:embed'}="${relationshipId}"/></pic:blipFill><pic:spPr/></pic:pic>` +
  `</a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;

/** A hyperlink to the relationship's target. */
export const hyperlink = (relationshipId: string, text: string) =>
  `<w:p><w:hyperlink r:id="${relationshipId}"><w:r><w:t>${escape(text)}</w:t></w:r></w:hyperlink></w:p>`;

export interface Relationship {
  id: string;
  type: 'image' | 'hyperlink';
  target: string;
  external?: boolean;
}

/**
 * A Word document whose body is `body` (paragraphs, tables…), with the styles of two heading
 * levels, a bulleted list, `relationships` and `media` (part name under word/ → bytes).
 */
export function wordDocument(
  body: string,
  relationships: Relationship[] = [],
  media: Record<string, Uint8Array> = {},
): Uint8Array {
  const rels = relationships
    .map(
      (r) =>
        `<Relationship Id="${r.id}" Type="${REL}/${r.type}" Target="${escape(r.target)}"${
          r.external ? ' TargetMode="External"' : ''
        }/>`,
    )
    .join('');
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Default Extension="png" ContentType="image/png"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
        '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>' +
        '<Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/></Types>',
    ),
    '_rels/.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    'word/_rels/document.xml.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        `<Relationship Id="rIdStyles" Type="${REL}/styles" Target="styles.xml"/>` +
        `<Relationship Id="rIdNumbering" Type="${REL}/numbering" Target="numbering.xml"/>${rels}</Relationships>`,
    ),
    'word/styles.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="${W}">` +
        '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>' +
        '<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style></w:styles>',
    ),
    'word/numbering.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><w:numbering xmlns:w="${W}">` +
        '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl></w:abstractNum>' +
        '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>',
    ),
    'word/document.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}" xmlns:r="${R}"><w:body>${body}</w:body></w:document>`,
    ),
  };
  for (const [name, bytes] of Object.entries(media)) files[`word/${name}`] = bytes;
  return zipSync(files);
}
