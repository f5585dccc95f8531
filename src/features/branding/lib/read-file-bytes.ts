/**
 * The bytes of a chosen file. FileReader rather than `Blob.arrayBuffer()`: it is the one API
 * every browser (and the test DOM) has for a File from an <input type="file">.
 */
export function readFileBytes(file: Blob): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsArrayBuffer(file);
  });
}
