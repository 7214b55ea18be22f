/** Hands a file made in the browser (or fetched as a Blob) to the user as a download. */
export function saveFile(data: Blob, filename: string): void {
  const href = URL.createObjectURL(data);
  const a = document.createElement('a');
  a.href = href;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}
