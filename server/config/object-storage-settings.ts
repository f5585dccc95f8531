import type { TomlTable } from './toml.ts';
import { tableAt } from './toml.ts';
import { booleanSetting, choiceSetting, stringSetting } from './values.ts';

/** Where stored files' bytes live: the data directory (the default) or an S3-compatible bucket. */
export type ObjectStorageSettings = { backend: 'disk' } | ({ backend: 's3' } & S3Settings);

/**
 * An S3-compatible bucket (AWS S3, Cloudflare R2, Backblaze B2, MinIO, Supabase Storage's S3
 * endpoint). Plain data, so that it can be handed to a worker thread.
 */
export interface S3Settings {
  bucket: string;
  region: string;
  /** The service's address; unset for AWS itself. */
  endpoint: string | undefined;
  /** Keys start with this (`steward/`), so that one bucket can hold several installations. */
  prefix: string;
  /** `https://host/bucket/key` instead of `https://bucket.host/key` (MinIO and most self-hosted). */
  forcePathStyle: boolean;
  /** Unset: the AWS SDK's own chain (AWS_ACCESS_KEY_ID, a profile, an instance role…). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
}

export const OBJECT_STORAGE_BACKENDS = ['disk', 's3'] as const;

/**
 * Reads `[object_storage]` of steward.toml, each setting overridable by its variable. The keys
 * are read from the environment only (OBJECT_STORAGE_ACCESS_KEY_ID and _SECRET_ACCESS_KEY), so
 * that no secret sits in a file kept in the repository.
 */
export function readObjectStorageSettings(
  env: NodeJS.ProcessEnv,
  stewardToml: TomlTable,
  stewardName: string,
  options: { bucketRequired: boolean } = { bucketRequired: true },
): ObjectStorageSettings {
  const table = tableAt(stewardToml, 'object_storage');
  const where = `${stewardName} [object_storage]`;
  const source = (key: string, envName: string) => ({
    table,
    where,
    key,
    env: { vars: env, name: envName },
  });
  const backend = choiceSetting(
    source('backend', 'OBJECT_STORAGE_BACKEND'),
    OBJECT_STORAGE_BACKENDS,
    'disk',
  );
  if (backend === 'disk') return { backend };
  const bucket = stringSetting(source('bucket', 'OBJECT_STORAGE_BUCKET'), '');
  if (!bucket && options.bucketRequired) {
    throw new Error(`${where} bucket (OBJECT_STORAGE_BUCKET) must be set when backend is "s3"`);
  }
  const endpoint = stringSetting(source('endpoint', 'OBJECT_STORAGE_ENDPOINT'), '');
  if (endpoint && !URL.canParse(endpoint)) {
    throw new Error(`${where} endpoint (OBJECT_STORAGE_ENDPOINT) must be a URL, got "${endpoint}"`);
  }
  const prefix = stringSetting(source('prefix', 'OBJECT_STORAGE_PREFIX'), '');
  if (prefix && !/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/$/.test(prefix)) {
    throw new Error(
      `${where} prefix (OBJECT_STORAGE_PREFIX) must be folder names ending with "/", got "${prefix}"`,
    );
  }
  const accessKeyId = env.OBJECT_STORAGE_ACCESS_KEY_ID ?? '';
  const secretAccessKey = env.OBJECT_STORAGE_SECRET_ACCESS_KEY ?? '';
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new Error(
      'OBJECT_STORAGE_ACCESS_KEY_ID and OBJECT_STORAGE_SECRET_ACCESS_KEY must be set together',
    );
  }
  return {
    backend,
    bucket,
    region: stringSetting(source('region', 'OBJECT_STORAGE_REGION'), 'us-east-1'),
    endpoint: endpoint || undefined,
    prefix,
    forcePathStyle: booleanSetting(
      source('force_path_style', 'OBJECT_STORAGE_FORCE_PATH_STYLE'),
      false,
    ),
    credentials: accessKeyId ? { accessKeyId, secretAccessKey } : undefined,
  };
}
