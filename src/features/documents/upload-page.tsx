/** Placeholder until this page is built. */
export function UploadPage() {
  return <h1>Upload</h1>;
}
