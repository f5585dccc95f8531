import { BackupError, backupInstallation } from '../server/backup/backup.ts';
import { readConfig } from '../server/config.ts';

// `npm run backup -- <file>`: a consistent copy of the installation in DATA_DIR (database,
// stored files, secrets) as one .tar.gz, taken by the running server if one runs on it.
const [file, ...rest] = process.argv.slice(2);
if (!file || rest.length > 0) {
  console.error('Usage: npm run backup -- <file.tar.gz>');
  process.exit(2);
}
try {
  const result = await backupInstallation({ config: readConfig(), file });
  const { manifest } = result;
  const megabytes = (result.bytes / 1024 / 1024).toFixed(1);
  console.log(
    `Backup written to ${result.file} (${megabytes} MB, ${manifest.files} stored file(s), taken ${result.taken}).`,
  );
  if (manifest.missing_files.length > 0) {
    console.warn(
      `Warning: ${manifest.missing_files.length} file(s) the database refers to were already missing from the storage folder: ${manifest.missing_files.join(', ')}`,
    );
  }
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(`Backup failed: ${error.message}`);
  process.exit(1);
}
