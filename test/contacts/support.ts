// Shared by the contacts tests: a real Core on a temp data folder with the test seed, and writers
// for the spreadsheets users bring (CSV in several dialects and encodings, XLSX with several sheets).
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { Core } from '../../electron/service/core';
import { applySeed } from '../../electron/service/seed';
import { tempDir, testSeed } from '../helpers/server';

export interface TestCore {
  core: Core;
  accountId: number;
  otherId: number;
  dir: string;
  close(): Promise<void>;
}

export function openCore(dataDir = tempDir('chapar-contacts-')): TestCore {
  const core = new Core({ dataDir });
  applySeed(core, testSeed());
  return {
    core,
    accountId: core.accounts.findByName('acme')!.id,
    otherId: core.accounts.findByName('other')!.id,
    dir: dataDir,
    close: () => core.close(),
  };
}

export function writeText(
  dir: string,
  name: string,
  text: string,
  encoding: 'utf-8' | 'utf-8-bom' | 'windows-1256' | 'utf-16le' = 'utf-8',
): string {
  const file = path.join(dir, name);
  if (encoding === 'utf-8') fs.writeFileSync(file, text, 'utf8');
  else if (encoding === 'utf-8-bom') fs.writeFileSync(file, '\ufeff' + text, 'utf8');
  else if (encoding === 'utf-16le')
    fs.writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
  else fs.writeFileSync(file, iconv.encode(text, 'windows-1256'));
  return file;
}

export async function writeXlsx(
  dir: string,
  name: string,
  sheets: Record<string, Array<Array<string | number | null>>>,
): Promise<string> {
  const file = path.join(dir, name);
  const workbook = new ExcelJS.Workbook();
  for (const [sheetName, rows] of Object.entries(sheets)) {
    const sheet = workbook.addWorksheet(sheetName);
    for (const row of rows) sheet.addRow(row);
  }
  await workbook.xlsx.writeFile(file);
  return file;
}
