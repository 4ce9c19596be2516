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
 * Runs `write(file, progress)` into a new file named `<stem>-<time>-<id>.<format>` of the exports
 * folder, pushing export:progress (running, then done or failed) under `exportId`.
 */
export async function exportFile(
  { core, host, events }: AppServices,
  stem: string,
  format: 'csv' | 'xlsx',
  exportId: string | undefined,
  write: (file: string, progress: (done: number, total: number) => void) => Promise<{ rows: number }>,
): Promise<ExportAnswer> {
  const id = exportId ?? randomUUID();
  const stamp = new Date(core.clock.now()).toISOString().replace(/[:.]/g, '-').slice(0, 19);
  const fileName = `${stem}-${stamp}-${id.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 12) || 'x'}.${format}`;
  // The web bridge serves this folder (GET /bridge/exports/:file).
  const file = path.join(core.dataDir, 'exports', fileName);
  fs.mkdirSync(path.dirname(file), { recursive: true });
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
