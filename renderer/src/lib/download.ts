// A file the service wrote, for the user: web mode downloads it from its same-origin address;
// the desktop app has it on disk already (its path is shown, and "show in folder" opens it).
export function download(url: string, fileName: string): void {
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}
