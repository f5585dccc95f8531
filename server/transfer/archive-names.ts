import { zipEntryNames } from '../../supabase/functions/documents-zip/zip-names.ts';

/** A category as a folder name: "Volunteer/People Management" → "Volunteer_People Management". */
export const categoryFolder = (category: string) =>
  zipEntryNames([{ name: category, file_path: '' }])[0]!;

/**
 * The paths inside an export ZIP: each document's file in its category's folder, and its
 * earlier versions (when included) under `versions/{category}/`, every name made safe and
 * unique within its folder the way the documents-zip function names downloads.
 */
export function archivePaths(
  files: { folder: string; name: string; file_path: string }[],
): string[] {
  const byFolder = new Map<string, number[]>();
  files.forEach((file, index) => {
    byFolder.set(file.folder, [...(byFolder.get(file.folder) ?? []), index]);
  });
  const paths: string[] = new Array<string>(files.length);
  for (const [folder, indexes] of byFolder) {
    const names = zipEntryNames(indexes.map((index) => files[index]!));
    indexes.forEach((index, n) => {
      paths[index] = `${folder}/${names[n]}`;
    });
  }
  return paths;
}

/** Extensions of formats that are compressed already: stored as they are, not deflated again. */
const COMPRESSED = new Set(
  'jpg jpeg png gif webp heic heif avif zip gz tgz bz2 xz 7z rar docx xlsx pptx odt ods odp epub mp3 m4a aac ogg opus mp4 m4v mov avi mkv webm pdf'.split(
    ' ',
  ),
);

/** Whether a file is worth deflating (text, CSV, old office formats…). */
export const worthCompressing = (name: string) =>
  !COMPRESSED.has(/\.([A-Za-z0-9]{1,10})$/.exec(name)?.[1]?.toLowerCase() ?? '');
