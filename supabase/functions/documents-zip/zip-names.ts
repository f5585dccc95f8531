/**
 * The names of the files inside the ZIP: the documents' names as people gave them, made safe
 * for every unpacker (no folders, no control characters, no leading dots), with the stored
 * file's extension when the name has none, and each name once ("Minutes (2).pdf").
 */
export function zipEntryNames(documents: { name: string; file_path: string }[]): string[] {
  const taken = new Set<string>();
  return documents.map(({ name, file_path }) => {
    let safe = name
      // eslint-disable-next-line no-control-regex -- control characters are removed
      .replace(/[\u0000-\u001f\u007f]/g, '')
      .replace(/[/\\:*?"<>|]/g, '_')
      .replace(/^[.\s]+/, '')
      .trim()
      .slice(0, 200);
    if (safe === '') safe = 'document';
    const stored = /\.([A-Za-z0-9]{1,10})$/.exec(file_path)?.[1];
    if (stored && !/\.[A-Za-z0-9]{1,10}$/.test(safe)) safe = `${safe}.${stored}`;
    const dot = safe.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ''];
    let candidate = safe;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++)
      candidate = `${stem} (${n})${extension}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}
