// Web mode's spreadsheets: the browser streams the user's file to POST /bridge/uploads, which
// keeps it in the data folder's `uploads` folder under a random prefix; the import wizard then
// names it by that file name only (never a path), and host.uploadedFile maps it back here.
// Files of finished imports are swept after a day.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ServiceError } from '../../service/errors';
import { ApiCode } from '../../../shared/status';
import type { Core } from '../../service/core';

/** Larger uploads are refused (a spreadsheet is far smaller; the disk is the user's). */
export const MAX_SPREADSHEET_UPLOAD_BYTES = 4 * 1024 * 1024 * 1024;
const NAME = /^[0-9a-f]{16}-[^/\\]{1,200}$/;
const KEEP_MS = 24 * 60 * 60 * 1000;

export function uploadsDir(core: Core): string {
  return path.join(core.dataDir, 'uploads');
}

/** A new file for an upload named `original` by the browser (its name kept after the prefix). */
export function newUploadPath(core: Core, original: string): string {
  const clean =
    path
      .basename(original.replace(/\\/g, '/'))
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f<>:"|?*]/g, '_')
      .slice(-150) || 'spreadsheet';
  return path.join(uploadsDir(core), `${randomBytes(8).toString('hex')}-${clean}`);
}

/** The uploaded file an IPC call names; 400 for anything that is not one (a path, another folder). */
export function uploadedFile(core: Core, name: string): string {
  if (!NAME.test(name) || path.basename(name) !== name)
    throw new ServiceError(ApiCode.BadRequest, 'upload the file first (POST /bridge/uploads) and name it as answered');
  const file = path.join(uploadsDir(core), name);
  if (!fs.existsSync(file)) throw new ServiceError(ApiCode.BadRequest, 'فایل پیدا نشد یا خواندنی نیست (file_missing)');
  return file;
}

/** Removes uploads older than a day that no unfinished import still reads. */
export function sweepUploads(core: Core, now = Date.now()): void {
  const dir = uploadsDir(core);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  const open = core.db
    .prepare<[], string>("SELECT spec FROM import_jobs WHERE status IN ('queued', 'running')")
    .pluck()
    .all()
    .join('\n');
  for (const name of names) {
    const file = path.join(dir, name);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat || now - stat.mtimeMs < KEEP_MS || open.includes(JSON.stringify(file).slice(1, -1))) continue;
    fs.rmSync(file, { force: true });
  }
}
