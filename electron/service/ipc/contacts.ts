// IPC handlers of the contacts domain: segments, the import wizard and the opt-out list, mapped
// onto core.segments / core.imports / core.optouts (the rules live there).
import path from 'node:path';
import type { contactsContracts } from '../../../shared/ipc/contracts/contacts';
import type { ReadOptions } from '../../../shared/contacts';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import type { ImportJob } from '../contacts/imports';
import type { AppServices, HandlersFor } from './handler';
import { exportFile } from './export-files';

interface ReadChoices {
  sheet?: string;
  header_row?: number | null;
  delimiter?: string;
  encoding?: ReadOptions['encoding'];
}

function readOptions({ sheet, header_row, delimiter, encoding }: ReadChoices): ReadOptions {
  return {
    ...(sheet !== undefined ? { sheet } : {}),
    ...(header_row !== undefined ? { headerRow: header_row } : {}),
    ...(delimiter !== undefined ? { delimiter } : {}),
    ...(encoding !== undefined ? { encoding } : {}),
  };
}

function jobView(job: ImportJob) {
  return {
    job_id: job.id,
    kind: job.kind,
    segment_id: job.segment_id,
    target_segment_id: job.target_segment_id,
    file_name: job.file_name,
    status: job.status,
    rows: job.rows,
    fraction: job.fraction,
    total: job.total,
    valid: job.valid,
    invalid: job.invalid,
    duplicates: job.duplicates,
    opted_out: job.opted_out,
    error: job.error,
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
  };
}

export function contactsHandlers(services: AppServices): HandlersFor<typeof contactsContracts> {
  const { core, host } = services;
  /** The spreadsheet's path and the name the user knows it by. */
  const spreadsheet = (file: string): { file: string; fileName: string } => {
    if (host.uploadedFile) {
      const resolved = host.uploadedFile(file);
      // Uploads are stored as <random>-<original name>.
      return { file: resolved, fileName: path.basename(resolved).replace(/^[0-9a-f]{16}-/, '') };
    }
    if (!path.isAbsolute(file)) throw new ServiceError(ApiCode.BadRequest, 'the file must be an absolute path');
    return { file, fileName: path.basename(file) };
  };
  const importJob = (accountId: number, jobId: number) => {
    const job = core.imports.get(accountId, jobId);
    if (!job) throw new ServiceError(ApiCode.NotFound, `import ${jobId} not found`);
    return job;
  };
  return {
    'segments:list': ({ account_id, search }) => {
      core.accounts.get(account_id);
      return core.segments.list(account_id, search);
    },
    'segments:get': ({ account_id, segment_id }) => core.segments.detail(account_id, segment_id),
    'segments:rename': ({ account_id, segment_id, name }) => core.segments.rename(account_id, segment_id, name),
    'segments:delete': ({ account_id, segment_id }) => {
      core.segments.delete(account_id, segment_id);
      return null;
    },
    'segments:members': ({ account_id, segment_id, search, offset, limit }) =>
      core.segments.members(account_id, segment_id, { search, offset, limit }),
    'segments:export': ({ account_id, segment_id, format, export_id }) => {
      const segment = core.segments.get(account_id, segment_id);
      return exportFile(services, `segment-${segment.id}`, format, export_id, (file, progress) =>
        format === 'xlsx'
          ? core.segments.exportXlsx(account_id, segment_id, file, progress)
          : core.segments.exportCsv(account_id, segment_id, file, progress),
      );
    },
    'segments:combineCount': async ({ account_id, include, exclude, filter }) => ({
      count: await core.segments.audienceCountOffThread(account_id, { include, exclude, filter }),
    }),
    'segments:combine': ({ account_id, include, exclude, filter, name }) => {
      const { jobId, segmentId } = core.segments.combine(account_id, { name, include, exclude, filter });
      return { job_id: jobId, segment_id: segmentId };
    },
    'segments:fromAudience': ({ account_id, include, exclude, filter, name }) => {
      const { jobId, segmentId } = core.segments.combine(account_id, { name, include, exclude, filter });
      return { job_id: jobId, segment_id: segmentId };
    },
    'segments:columnValues': ({ account_id, segment_ids, column }) =>
      core.segments.columnValues(account_id, segment_ids, { column }),

    'imports:preview': async ({ account_id, file, ...choices }) => {
      core.accounts.get(account_id);
      const source = spreadsheet(file);
      const found = await core.imports.previewFor(account_id, source.file, readOptions(choices));
      return {
        file_name: source.fileName,
        file_bytes: found.fileBytes,
        format: found.format,
        sheets: found.sheets,
        sheet: found.sheet,
        encoding: found.encoding,
        delimiter: found.delimiter,
        header_row: found.headerRow,
        columns: found.columns,
        phone_column: found.phoneColumn,
        rows: found.rows,
        remembered: found.remembered
          ? { phone: found.remembered.phone, columns: found.remembered.columns ?? [] }
          : null,
      };
    },
    'imports:start': async ({ account_id, file, mapping, name, segment_id, ...choices }) => {
      core.accounts.get(account_id);
      const source = spreadsheet(file);
      const { jobId, segmentId } = await core.imports.start(account_id, {
        ...readOptions(choices),
        file: source.file,
        fileName: source.fileName,
        mapping,
        ...(name !== undefined ? { name } : { name: source.fileName.replace(/\.[^.]+$/, '') || source.fileName }),
        ...(segment_id !== undefined ? { segmentId: segment_id } : {}),
      });
      return { job_id: jobId, segment_id: segmentId };
    },
    'imports:get': ({ account_id, job_id }) => jobView(importJob(account_id, job_id)),
    'imports:list': ({ account_id }) => core.imports.list(account_id).map(jobView),
    'imports:cancel': ({ account_id, job_id }) => {
      importJob(account_id, job_id);
      return { cancelled: core.imports.cancel(account_id, job_id) };
    },
    'imports:rejections': ({ account_id, job_id, reason, offset, limit }) =>
      core.imports.rejections(account_id, job_id, { reason, offset, limit }),
    'imports:exportRejections': ({ account_id, job_id, format, language, export_id }) => {
      importJob(account_id, job_id);
      return exportFile(services, `rejections-${job_id}`, format, export_id, (target, progress) =>
        core.imports.exportRejections(account_id, job_id, target, progress, { format, language }),
      );
    },

    'optouts:list': ({ account_id, search, offset, limit }) => {
      core.accounts.get(account_id);
      return core.optouts.list(account_id, { search, offset, limit });
    },
    'optouts:add': ({ account_id, phones }) => {
      core.accounts.get(account_id);
      return core.optouts.add(account_id, phones);
    },
    'optouts:remove': ({ account_id, phones }) => {
      core.accounts.get(account_id);
      return { removed: core.optouts.remove(account_id, phones) };
    },
    'optouts:import': async ({ account_id, file, phone_column, ...choices }) => {
      core.accounts.get(account_id);
      const source = spreadsheet(file);
      const { jobId } = await core.optouts.importFile(account_id, {
        ...readOptions(choices),
        file: source.file,
        fileName: source.fileName,
        ...(phone_column !== undefined ? { mapping: { phone: phone_column } } : {}),
      });
      return { job_id: jobId };
    },
    'optouts:export': ({ account_id, format, export_id }) => {
      core.accounts.get(account_id);
      return exportFile(services, 'opt-outs', format, export_id, (file, progress) =>
        core.optouts.export(account_id, file, format, progress),
      );
    },
  };
}
