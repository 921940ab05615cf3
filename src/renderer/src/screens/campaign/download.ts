// Saves bytes the renderer made as a file: an <a download> click works in the desktop window
// (Electron's download handler) and in the web dashboard alike.
export function download(name: string, bytes: Uint8Array | string, type: string): void {
  const blob = new Blob([bytes as BlobPart], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked after the click has been handled.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
