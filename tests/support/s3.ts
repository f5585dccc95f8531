import S3rver from '@20minutes/s3rver';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { S3Settings } from '../../server/config/object-storage-settings.ts';
import { s3Client } from '../../server/storage/s3-file-store.ts';
import { scratchDir } from './scratch.ts';

/**
 * `TEST_OBJECT_STORAGE=s3` runs the test servers' stored files in an S3-compatible bucket
 * instead of their data directory: a local S3 server (s3rver, from npm) started by the global
 * set-up, with a new bucket for every test server. scripts/test.ts runs the suites that
 * exercise the file store this way too (s3-test-files.ts).
 */
export const OBJECT_STORAGE_MODE = 'TEST_OBJECT_STORAGE';
/** Where the global set-up's S3 server listens; test workers inherit it. */
const ENDPOINT = 'STEWARD_TEST_S3_ENDPOINT';

// s3rver checks request signatures but builds its canonical request from a normalised path
// (`/bucket` for the SDK's `/bucket/`), so it refuses the SDK's bucket requests; the signature
// is the SDK's business and real services check it, the bytes and semantics are what is tested.
const S3RVER_KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** Whether this run keeps test servers' files in S3. */
export const testingOnS3 = (): boolean => process.env[OBJECT_STORAGE_MODE] === 's3';

/** A local S3 server (s3rver) keeping its buckets under `directory`. */
export interface LocalS3Server {
  endpoint: string;
  directory: string;
  /** A new empty bucket, with the settings that reach it. */
  freshBucket(): Promise<S3Settings>;
  close(): Promise<void>;
}

export async function startLocalS3Server(): Promise<LocalS3Server> {
  const directory = await scratchDir('steward-s3-');
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    allowMismatchedSignatures: true,
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    directory,
    freshBucket: () => createBucket(endpoint),
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** Starts the run's S3 server (global set-up); returns how to stop it. */
export async function startTestS3Server(): Promise<() => Promise<void>> {
  const server = await startLocalS3Server();
  process.env[ENDPOINT] = server.endpoint;
  return () => server.close();
}

/** A new empty bucket on the run's S3 server, with the settings that reach it. */
export async function freshTestBucket(): Promise<S3Settings> {
  const endpoint = process.env[ENDPOINT];
  if (!endpoint) throw new Error(`${OBJECT_STORAGE_MODE}=s3 needs the global set-up's S3 server`);
  return createBucket(endpoint);
}

async function createBucket(endpoint: string): Promise<S3Settings> {
  const settings: S3Settings = {
    bucket: `steward-test-${randomUUID()}`,
    region: 'us-east-1',
    endpoint,
    prefix: 'steward/',
    forcePathStyle: true,
    credentials: S3RVER_KEYS,
  };
  await s3Client(settings).send(new CreateBucketCommand({ Bucket: settings.bucket }));
  return settings;
}

/** The environment that makes a server use `settings` (steward.toml `[object_storage]`). */
export function objectStorageEnv(settings: S3Settings): Record<string, string> {
  return {
    OBJECT_STORAGE_BACKEND: 's3',
    OBJECT_STORAGE_BUCKET: settings.bucket,
    OBJECT_STORAGE_REGION: settings.region,
    OBJECT_STORAGE_ENDPOINT: settings.endpoint ?? '',
    OBJECT_STORAGE_PREFIX: settings.prefix,
    OBJECT_STORAGE_FORCE_PATH_STYLE: String(settings.forcePathStyle),
    OBJECT_STORAGE_ACCESS_KEY_ID: settings.credentials?.accessKeyId ?? '',
    OBJECT_STORAGE_SECRET_ACCESS_KEY: settings.credentials?.secretAccessKey ?? '',
  };
}
