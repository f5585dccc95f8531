/**
 * Small files that cost a naive reader a great deal of memory (issue 22, R2), made on the spot:
 * a PDF of huge blank scans and a Word document of millions of paragraphs. Each is a few hundred
 * KB; read naively, each takes gigabytes. Used by the tests and the isolation benchmark.
 */
import { strToU8 } from 'fflate';
import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName } from 'pdf-lib';
import { rawZip } from './zip-files.ts';

/**
 * A PDF of `pages` pages, each one a `side` × `side` grey scan (all black) and no text layer,
 * as a scanner would make it. The default, 3 pages of 16000 × 16000, is about 0.75 MB (deflate
 * packs zeros about a thousand to one) and decodes to 256 MB a page, then more than 1 GB as the
 * RGBA pixels OCR reads.
 */
export async function hugeScanPdf(pages = 3, side = 16_000): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  // Calloc'd zeros are not even touched in memory until deflate reads them. Every page's scan
  // is the same, so deflated once: each page's took 0.6 s of CPU for the default's 256 MB.
  const pixels = deflateSync(Buffer.alloc(side * side), { level: 9 });
  for (let i = 0; i < pages; i++) {
    const image = pdf.context.register(
      pdf.context.stream(pixels, {
        Type: 'XObject',
        Subtype: 'Image',
        Width: side,
        Height: side,
        ColorSpace: 'DeviceGray',
        BitsPerComponent: 8,
        Filter: 'FlateDecode',
      }),
    );
    const page = pdf.addPage([612, 792]);
    page.node.setXObject(PDFName.of('Scan'), image);
    const content = pdf.context.register(
      pdf.context.stream(strToU8('q 612 0 0 792 0 0 cm /Scan Do Q')),
    );
    page.node.set(PDFName.of('Contents'), content);
  }
  return pdf.save();
}

/**
 * A Word document whose one part, word/document.xml, holds `paragraphs` paragraphs of one
 * word each: the default, two million, is about 200 KB zipped and 76 MB of XML, which a
 * reader that builds the whole document tree turns into gigabytes.
 */
export function paragraphBombDocx(paragraphs = 2_000_000): Uint8Array {
  const paragraph = '<w:p><w:r><w:t>amen</w:t></w:r></w:p>';
  const head =
    '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>';
  const tail = '</w:body></w:document>';
  const body = Buffer.alloc(head.length + paragraph.length * paragraphs + tail.length);
  body.write(head, 0, 'latin1');
  body.fill(paragraph, head.length, head.length + paragraph.length * paragraphs, 'latin1');
  body.write(tail, head.length + paragraph.length * paragraphs, 'latin1');
  return rawZip([
    {
      name: '[Content_Types].xml',
      data: strToU8(
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
      deflate: true,
    },
    {
      name: '_rels/.rels',
      data: strToU8(
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ),
      deflate: true,
    },
    { name: 'word/document.xml', data: body, deflate: true },
  ]);
}
