import packageJson from '../../package.json' with { type: 'json' };

/** The name of the manifest inside a backup archive; always its first entry. */
export const MANIFEST_NAME = 'steward-backup.json';
/** The database inside a backup archive: PGlite's tarball of its data directory. */
export const DATABASE_DUMP_NAME = 'db.tar';

/** Written into every backup; a backup of another product has something else here. */
const PRODUCT = 'steward';
/** The layout of the archive. Raise it when a restore of this version could not read a new one. */
export const BACKUP_FORMAT = 1;

/** What a backup says about itself. */
export interface BackupManifest {
  product: typeof PRODUCT;
  format: number;
  /** The Steward version that made it. */
  version: string;
  created_at: string;
  /** The schema migrations applied to the database in it (`supabase_migrations`). */
  migrations: string[];
  /** How many stored files it holds. */
  files: number;
  /** Files the database referred to that were not on disk when the backup was taken. */
  missing_files: string[];
}

/** The manifest of a backup taken now by this version of Steward. */
export function newManifest(fields: {
  migrations: string[];
  files: number;
  missingFiles: string[];
  createdAt: Date;
}): BackupManifest {
  return {
    product: PRODUCT,
    format: BACKUP_FORMAT,
    version: packageJson.version,
    created_at: fields.createdAt.toISOString(),
    migrations: fields.migrations,
    files: fields.files,
    missing_files: fields.missingFiles,
  };
}

/**
 * The manifest in `text`, checked against this version of Steward (whose migrations are
 * `knownMigrations`); throws an Error whose message says what is wrong.
 */
export function readManifest(text: string, knownMigrations: readonly string[]): BackupManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('the backup manifest is not valid JSON: the file is damaged');
  }
  const manifest = (typeof value === 'object' && value !== null ? value : {}) as Record<
    string,
    unknown
  >;
  if (manifest.product !== PRODUCT) {
    throw new Error('this is not a Steward backup (its manifest names another product)');
  }
  const { format, version, migrations } = manifest;
  if (
    typeof format !== 'number' ||
    typeof version !== 'string' ||
    !Array.isArray(migrations) ||
    !migrations.every((name) => typeof name === 'string')
  ) {
    throw new Error('the backup manifest is incomplete: the file is damaged');
  }
  if (format > BACKUP_FORMAT || compareVersions(version, packageJson.version) > 0) {
    throw new Error(
      `this backup was made by Steward ${version}, newer than this one (${packageJson.version}): restore it with Steward ${version} or later`,
    );
  }
  const known = new Set(knownMigrations);
  const unknown = (migrations as string[]).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new Error(
      `this backup holds database changes this Steward does not know (${unknown.join(', ')}): restore it with the Steward version that made it (${version}) or later`,
    );
  }
  return value as BackupManifest;
}

/** Compares dotted version numbers (`2.10.0` > `2.9.1`); anything after a `-` is ignored. */
function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v
      .split('-')[0]!
      .split('.')
      .map((part) => Number(part) || 0);
  const [pa, pb] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}
