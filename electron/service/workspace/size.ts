// What the workspace folder holds on disk, by part: the database and its write-ahead log, the
// uploaded files, the archive, backups and exports, and the rest. Read with the asynchronous file
// API, so a folder of many files never holds the event loop.
import fs from 'node:fs/promises';
import path from 'node:path';

export interface FolderSizes {
  total: number;
  database: number;
  wal: number;
  files: number;
  archive: number;
  backups: number;
  exports: number;
  other: number;
  /** The archive folder's files, by name. */
  archives: Array<{ name: string; bytes: number }>;
}

async function bytesOf(target: string): Promise<number> {
  let stat;
  try {
    stat = await fs.lstat(target);
  } catch {
    // Gone while we looked (an export cleaned up, a .part renamed): it holds nothing now.
    return 0;
  }
  if (!stat.isDirectory()) return stat.isFile() ? stat.size : 0;
  let entries: string[] = [];
  try {
    entries = await fs.readdir(target);
  } catch {
    return 0;
  }
  let total = 0;
  for (const entry of entries) total += await bytesOf(path.join(target, entry));
  return total;
}

/** The sizes of `dataDir`'s parts; `databaseFile` is the database's name in it (chapar.db). */
export async function folderSizes(dataDir: string, databaseFile: string): Promise<FolderSizes> {
  const sizes: FolderSizes = {
    total: 0,
    database: 0,
    wal: 0,
    files: 0,
    archive: 0,
    backups: 0,
    exports: 0,
    other: 0,
    archives: [],
  };
  let entries: string[] = [];
  try {
    entries = await fs.readdir(dataDir);
  } catch {
    return sizes;
  }
  for (const entry of entries) {
    const bytes = await bytesOf(path.join(dataDir, entry));
    sizes.total += bytes;
    if (entry === databaseFile) sizes.database += bytes;
    else if (entry === `${databaseFile}-wal` || entry === `${databaseFile}-shm`) sizes.wal += bytes;
    else if (entry === 'files') sizes.files += bytes;
    else if (entry === 'archive') sizes.archive += bytes;
    else if (entry === 'backups') sizes.backups += bytes;
    else if (entry === 'exports') sizes.exports += bytes;
    else sizes.other += bytes;
  }
  try {
    const names = (await fs.readdir(path.join(dataDir, 'archive'))).filter((name) => name.endsWith('.db')).sort();
    for (const name of names) sizes.archives.push({ name, bytes: await bytesOf(path.join(dataDir, 'archive', name)) });
  } catch {
    // No archive yet.
  }
  return sizes;
}
