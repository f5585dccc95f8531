import { storageErrors } from './errors.ts';

/** The file part of a `multipart/form-data` upload and the fields sent before it. */
export interface MultipartUpload {
  fields: Map<string, string>;
  file: {
    contentType: string | undefined;
    /** The file's bytes, read from the request as they are consumed. */
    body: AsyncGenerator<Buffer>;
  } | null;
}

export interface MultipartLimits {
  fields: number;
  /** Bytes of all field values together (user metadata may take up to 1 MiB of it). */
  fieldBytes: number;
  headerBytes: number;
}

const DEFAULT_LIMITS: MultipartLimits = {
  fields: 10,
  fieldBytes: 1024 * 1024 + 4096,
  headerBytes: 16384,
};

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

const malformed = (detail: string) =>
  storageErrors.invalidRequest(`Malformed multipart/form-data body: ${detail}`);

/** The boundary of a `multipart/form-data` content type (RFC 2046: 1 to 70 characters). */
export function multipartBoundary(contentType: string): string {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))\s*(?:;|$)/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) throw malformed('no boundary');
  return boundary;
}

/**
 * Reads a `multipart/form-data` upload as the storage server does: the fields before the first
 * part that carries a file name, then that file, streamed. Parts after the file are not read.
 * Field values are bounded (`limits`); the file's size is left to the consumer.
 *
 * Why not busboy (checked with busboy 1.6): it reports a part's type as `type/subtype` only,
 * dropping `;charset=utf-8` (which decides whether a stored text file may show inline) and
 * calling a part without one `text/plain` instead of `application/octet-stream`; it reads an
 * oversized field, and any body without a boundary, to its end before it says so (here the
 * answer comes after 1 MiB and 16 KiB); and it pushes into the consumer where this pulls.
 */
export async function readMultipartUpload(
  chunks: AsyncIterator<Buffer>,
  boundary: string,
  limits: MultipartLimits = DEFAULT_LIMITS,
): Promise<MultipartUpload> {
  // A CRLF in front lets the first boundary match the same delimiter as the others.
  const scanner = new Scanner(chunks, Buffer.from('\r\n'));
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const fields = new Map<string, string>();
  let fieldParts = 0;
  let fieldBytes = 0;

  const noBoundary = 'no opening boundary';
  await scanner.readUntil(delimiter, limits.headerBytes, noBoundary, noBoundary);
  for (;;) {
    if (await scanner.consumeIf(Buffer.from('--'))) return { fields, file: null };
    await scanner.skipTransportPadding();
    if (!(await scanner.consumeIf(CRLF))) throw malformed('boundary not followed by a line break');
    const headerBlock = (await scanner.consumeIf(CRLF))
      ? ''
      : (await scanner.readUntil(HEADER_END, limits.headerBytes, 'headers too long')).toString(
          'latin1',
        );
    const part = parsePartHeaders(headerBlock);
    if (part.filename !== undefined) {
      return {
        fields,
        file: { contentType: part.contentType, body: scanner.streamUntil(delimiter) },
      };
    }
    const value = await scanner.readUntil(
      delimiter,
      limits.fieldBytes - fieldBytes,
      'fields too long',
    );
    fieldBytes += value.length;
    if (++fieldParts > limits.fields) throw malformed('too many fields');
    if (part.name !== undefined && !fields.has(part.name))
      fields.set(part.name, value.toString('utf8'));
  }
}

interface PartHeaders {
  name: string | undefined;
  filename: string | undefined;
  contentType: string | undefined;
}

function parsePartHeaders(block: string): PartHeaders {
  const result: PartHeaders = { name: undefined, filename: undefined, contentType: undefined };
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw malformed('bad part header');
    const header = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (header === 'content-type') {
      result.contentType = value;
    } else if (header === 'content-disposition') {
      const params = dispositionParameters(value);
      result.name = params.get('name');
      result.filename = params.get('filename') ?? params.get('filename*');
    }
  }
  return result;
}

/** `form-data; name="x"; filename="y"` → its parameters (quoted strings unescaped). */
function dispositionParameters(value: string): Map<string, string> {
  const params = new Map<string, string>();
  const pattern = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (const match of value.matchAll(pattern)) {
    const key = match[1]!.toLowerCase();
    const raw = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3]!.trim();
    // Header bytes were read as latin1; names sent by browsers are UTF-8.
    if (!params.has(key)) params.set(key, Buffer.from(raw, 'latin1').toString('utf8'));
  }
  return params;
}

/** Pulls chunks from a body and finds delimiters across chunk borders. */
class Scanner {
  private buffer: Buffer;

  constructor(
    private readonly chunks: AsyncIterator<Buffer>,
    initial: Buffer,
  ) {
    this.buffer = initial;
  }

  /**
   * Reads one more chunk into the buffer. A body that ends before the closing boundary was cut
   * short: its last part must not be taken for complete.
   */
  private async fill(missing = 'unexpected end of body'): Promise<void> {
    const next = await this.chunks.next();
    if (next.done) throw malformed(missing);
    this.buffer = this.buffer.length === 0 ? next.value : Buffer.concat([this.buffer, next.value]);
  }

  async consumeIf(expected: Buffer): Promise<boolean> {
    while (this.buffer.length < expected.length) await this.fill();
    if (!this.buffer.subarray(0, expected.length).equals(expected)) return false;
    this.buffer = this.buffer.subarray(expected.length);
    return true;
  }

  /** Spaces and tabs may follow a boundary before its line break (RFC 2046). */
  async skipTransportPadding(): Promise<void> {
    for (let skipped = 0; skipped < 256; skipped++) {
      if (this.buffer.length === 0) await this.fill();
      const byte = this.buffer[0];
      if (byte !== 0x20 && byte !== 0x09) return;
      this.buffer = this.buffer.subarray(1);
    }
    throw malformed('boundary line too long');
  }

  /** Returns the bytes before `delimiter` (at most `max`) and consumes the delimiter. */
  async readUntil(
    delimiter: Buffer,
    max: number,
    tooLong: string,
    atEnd?: string,
  ): Promise<Buffer> {
    for (;;) {
      const index = this.buffer.indexOf(delimiter);
      if (index >= 0) {
        if (index > max) throw malformed(tooLong);
        const before = this.buffer.subarray(0, index);
        this.buffer = this.buffer.subarray(index + delimiter.length);
        return before;
      }
      if (this.buffer.length > max + delimiter.length) throw malformed(tooLong);
      await this.fill(atEnd);
    }
  }

  /** Yields the bytes before `delimiter` as they arrive, then consumes the delimiter. */
  async *streamUntil(delimiter: Buffer): AsyncGenerator<Buffer> {
    for (;;) {
      const index = this.buffer.indexOf(delimiter);
      if (index >= 0) {
        if (index > 0) yield this.buffer.subarray(0, index);
        this.buffer = this.buffer.subarray(index + delimiter.length);
        return;
      }
      // Everything but a possible start of the delimiter can go out now.
      const safe = this.buffer.length - (delimiter.length - 1);
      if (safe > 0) {
        const out = this.buffer.subarray(0, safe);
        this.buffer = this.buffer.subarray(safe);
        yield out;
      }
      await this.fill();
    }
  }
}
