import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListPartsCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3Settings } from '../../server/config/object-storage-settings.ts';
import { s3Client } from '../../server/storage/s3-file-store.ts';
import { startLocalS3Server, type LocalS3Server } from './s3.ts';

// The test S3 server (s3rver) gains ListParts and AbortMultipartUpload through
// patches/@20minutes+s3rver+*.patch, which resumable uploads into a bucket (@tus/s3-store)
// need. The patched server is checked here through the AWS SDK, as S3's API reference has them.

let s3: LocalS3Server;
let settings: S3Settings;
let client: S3Client;
beforeAll(async () => {
  s3 = await startLocalS3Server();
  settings = await s3.freshBucket();
  client = s3Client(settings);
});
afterAll(() => s3?.close());

const quotedMd5 = (bytes: Buffer) => `"${createHash('md5').update(bytes).digest('hex')}"`;

/** A multipart upload of `key` with one part of `sizes[i]` random bytes for each number i + 1. */
async function uploadWithParts(key: string, sizes: number[]) {
  const { UploadId } = await client.send(
    new CreateMultipartUploadCommand({ Bucket: settings.bucket, Key: key }),
  );
  const parts: Buffer[] = [];
  for (const [index, size] of sizes.entries()) {
    const body = randomBytes(size);
    parts.push(body);
    await client.send(
      new UploadPartCommand({
        Bucket: settings.bucket,
        Key: key,
        UploadId,
        PartNumber: index + 1,
        Body: body,
      }),
    );
  }
  return { uploadId: UploadId!, parts };
}

describe('the test S3 server: ListParts', () => {
  it('lists the parts with their numbers, sizes and ETags (the quoted MD5 of each part)', async () => {
    const { uploadId, parts } = await uploadWithParts('a/listed', [7, 1024, 3]);
    const listed = await client.send(
      new ListPartsCommand({ Bucket: settings.bucket, Key: 'a/listed', UploadId: uploadId }),
    );
    expect(listed.Bucket).toBe(settings.bucket);
    expect(listed.Key).toBe('a/listed');
    expect(listed.UploadId).toBe(uploadId);
    expect(listed.IsTruncated).toBe(false);
    expect(listed.Parts?.map(({ PartNumber, Size, ETag }) => ({ PartNumber, Size, ETag }))).toEqual(
      parts.map((bytes, index) => ({
        PartNumber: index + 1,
        Size: bytes.length,
        ETag: quotedMd5(bytes),
      })),
    );
    expect(listed.Parts?.every((part) => part.LastModified instanceof Date)).toBe(true);
  });

  it('pages with max-parts and part-number-marker', async () => {
    const { uploadId } = await uploadWithParts('paged', [1, 2, 3, 4, 5]);
    const page = (marker?: string) =>
      client.send(
        new ListPartsCommand({
          Bucket: settings.bucket,
          Key: 'paged',
          UploadId: uploadId,
          MaxParts: 2,
          PartNumberMarker: marker,
        }),
      );
    const first = await page();
    expect(first.Parts?.map((part) => part.PartNumber)).toEqual([1, 2]);
    expect(first.IsTruncated).toBe(true);
    expect(first.MaxParts).toBe(2);
    expect(first.NextPartNumberMarker).toBe('2');
    const second = await page(first.NextPartNumberMarker);
    expect(second.Parts?.map((part) => part.PartNumber)).toEqual([3, 4]);
    expect(second.PartNumberMarker).toBe('2');
    expect(second.IsTruncated).toBe(true);
    const last = await page(second.NextPartNumberMarker);
    expect(last.Parts?.map((part) => part.Size)).toEqual([5]);
    expect(last.IsTruncated).toBe(false);
  });

  it('answers NoSuchUpload for an unknown upload id, or one of another key', async () => {
    const { uploadId } = await uploadWithParts('owned', [1]);
    for (const [key, id] of [
      ['owned', 'f'.repeat(32)],
      ['owned', '../owned'],
      ['another', uploadId],
    ]) {
      await expect(
        client.send(new ListPartsCommand({ Bucket: settings.bucket, Key: key, UploadId: id })),
      ).rejects.toMatchObject({ name: 'NoSuchUpload', $metadata: { httpStatusCode: 404 } });
    }
  });

  it('completing an upload makes its parts the object and ends the upload', async () => {
    const { uploadId, parts } = await uploadWithParts('completed', [5, 6]);
    const listed = await client.send(
      new ListPartsCommand({ Bucket: settings.bucket, Key: 'completed', UploadId: uploadId }),
    );
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: settings.bucket,
        Key: 'completed',
        UploadId: uploadId,
        MultipartUpload: {
          Parts: listed.Parts!.map(({ PartNumber, ETag }) => ({ PartNumber, ETag })),
        },
      }),
    );
    const object = await client.send(
      new GetObjectCommand({ Bucket: settings.bucket, Key: 'completed' }),
    );
    expect(Buffer.from(await object.Body!.transformToByteArray())).toEqual(Buffer.concat(parts));
    await expect(
      client.send(
        new ListPartsCommand({ Bucket: settings.bucket, Key: 'completed', UploadId: uploadId }),
      ),
    ).rejects.toMatchObject({ name: 'NoSuchUpload' });
  });
});

describe('the test S3 server: AbortMultipartUpload', () => {
  it('removes the upload and its parts (204), after which it is unknown', async () => {
    const { uploadId } = await uploadWithParts('aborted', [4, 4]);
    const aborted = await client.send(
      new AbortMultipartUploadCommand({
        Bucket: settings.bucket,
        Key: 'aborted',
        UploadId: uploadId,
      }),
    );
    expect(aborted.$metadata.httpStatusCode).toBe(204);
    await expect(
      client.send(
        new ListPartsCommand({ Bucket: settings.bucket, Key: 'aborted', UploadId: uploadId }),
      ),
    ).rejects.toMatchObject({ name: 'NoSuchUpload' });
    // A part for it is refused too, as S3 refuses it, instead of starting the upload anew.
    await expect(
      client.send(
        new UploadPartCommand({
          Bucket: settings.bucket,
          Key: 'aborted',
          UploadId: uploadId,
          PartNumber: 3,
          Body: Buffer.from('late'),
        }),
      ),
    ).rejects.toMatchObject({ name: 'NoSuchUpload' });
  });

  it('answers NoSuchUpload for an unknown upload id', async () => {
    await expect(
      client.send(
        new AbortMultipartUploadCommand({
          Bucket: settings.bucket,
          Key: 'never',
          UploadId: '0'.repeat(32),
        }),
      ),
    ).rejects.toMatchObject({ name: 'NoSuchUpload', $metadata: { httpStatusCode: 404 } });
  });
});
