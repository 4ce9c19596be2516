// A file written under a temporary name (`<name>.part`) and renamed once whole: a crash never
// leaves a truncated file that looks whole. When the writing fails or is stopped (the workspace
// closes), the stream is destroyed and its descriptor closed before the partial file is removed:
// an open or a write still under way would otherwise land after the removal and bring it back.
import { once } from 'node:events';
import fs from 'node:fs';

/** Destroys the stream; resolves once its descriptor is closed (at once if it already was). */
async function closeDestroyed(stream: fs.WriteStream | undefined): Promise<void> {
  if (!stream || stream.closed) return;
  // Writes queued behind the destroy fail; nobody reads them any more.
  stream.on('error', () => undefined);
  const closed = once(stream, 'close').catch(() => undefined);
  stream.destroy();
  await closed;
}

/** The file stream exceljs's streaming workbook writes into (created from its `filename`). */
export function workbookStream(workbook: unknown): fs.WriteStream | undefined {
  return (workbook as { stream?: fs.WriteStream }).stream;
}

/** Ends a partial file that will not be finished: its stream closed, then the file removed. */
export async function discardPartial(stream: fs.WriteStream | undefined, partial: string): Promise<void> {
  await closeDestroyed(stream);
  await fs.promises.rm(partial, { force: true }).catch(() => undefined);
}
