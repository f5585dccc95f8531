import { BackupError } from '../server/backup/backup.ts';
import { restoreInstallation } from '../server/backup/restore.ts';
import { readConfig } from '../server/config.ts';

// `npm run restore -- <file>`: restores a backup made by `npm run backup` into DATA_DIR, which
// must be empty or missing; then `npm start` serves it.
const [file, ...rest] = process.argv.slice(2);
if (!file || rest.length > 0) {
  console.error('Usage: npm run restore -- <file.tar.gz>');
  process.exit(2);
}
try {
  const { dataDir, manifest } = await restoreInstallation({ config: readConfig(), file });
  console.log(
    `Restored the backup of ${manifest.created_at} (${manifest.files} stored file(s)) into ${dataDir}. Start the server with: npm start`,
  );
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(`Restore failed: ${error.message}`);
  process.exit(1);
}
