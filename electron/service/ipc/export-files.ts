// Where the window's file exports (a campaign's report, a segment, a rejection report, the
// opt-out list) are written and how each answers: beside the Messages page's exports, a path on
// the desktop and a download URL of the web bridge in web mode, with export:progress pushes.
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { AppServices } from './handler';

export interface ExportAnswer {
  export_id: string;
  format: 'csv' | 'xlsx';
  rows: number;
  path: string | null;
  url: string | null;
  file_name: string;
}

/**
 * Runs `write(file, progress)` into a new file of the exports folder, pushing export:progress
 * (running, then done or failed) under `exportId`. The file is named `<stem>-<time>-<id>.<format>`,
 * or, given `title` (a name made of safe characters, e.g. a campaign's name and date), `<title>.<format>`
 * (`<title> (2).<format>` and so on when that one is taken).
 */
export async function exportFile(
  { core, host, events }: AppServices,
  stem: string,
  format: 'csv' | 'xlsx',
  exportId: string | undefined,
  write: (file: string, progress: (done: number, total: number) => void) => Promise<{ rows: number }>,
  title?: string,
): Promise<ExportAnswer> {
  const id = exportId ?? randomUUID();
  // The web bridge serves this folder (GET /bridge/exports/:file).
  const dir = path.join(core.dataDir, 'exports');
  fs.mkdirSync(dir, { recursive: true });
  let fileName: string;
  if (title === undefined) {
    const stamp = new Date(core.clock.now()).toISOString().replace(/[:.]/g, '-').slice(0, 19);
    fileName = `${stem}-${stamp}-${id.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 12) || 'x'}.${format}`;
  } else {
    // A name is taken by a file, or by an export writing it (its `.part`, made here at once so
    // two exports of one campaign on one day never pick the same name).
    const claim = (name: string) => {
      if (fs.existsSync(path.join(dir, name))) return false;
      try {
        fs.closeSync(fs.openSync(path.join(dir, name + '.part'), 'wx'));
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw error;
      }
    };
    fileName = `${title}.${format}`;
    for (let n = 2; !claim(fileName); n++) fileName = `${title} (${n}).${format}`;
  }
  const file = path.join(dir, fileName);
  const progress = (state: 'running' | 'done' | 'failed', done: number, total: number, error?: string) =>
    events.emit('export:progress', { export_id: id, state, done, total, ...(error ? { error } : {}) });
  try {
    const { rows } = await write(file, (done, total) => progress('running', done, total));
    progress('done', rows, rows);
    const web = host.mode === 'web' && host.exportUrl;
    return {
      export_id: id,
      format,
      rows,
      path: web ? null : file,
      url: web ? host.exportUrl!(fileName) : null,
      file_name: fileName,
    };
  } catch (error) {
    progress('failed', 0, 0, error instanceof Error ? error.message : String(error));
    throw error;
  }
}
