// Files uploaded for messenger sends (POST /upload-file/{provider}). The record says which account
// and provider it belongs to: a send may use it only from a line of the same provider (spec 4.1 rule 7).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import { ServiceError } from '../errors';
import { ApiCode, type Provider } from '../../../shared/status';

export type MessengerProvider = Exclude<Provider, 'sms'>;
export const MESSENGER_PROVIDERS: readonly MessengerProvider[] = ['bale', 'rubika'];

/** What the messenger providers take (the previous provider's documented list). */
export const ALLOWED_FILE_EXTENSIONS = ['jpeg', 'jpg', 'png', 'gif', 'opus', 'ogg', 'mp4'];
export const MAX_FILE_BYTES = 15 * 1024 * 1024;

export interface FileRecord {
  id: string;
  account_id: number;
  provider: MessengerProvider;
  name: string;
  mime: string;
  size: number;
  created_at: number;
}

export class Files {
  private readonly byId;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly dir: string,
  ) {
    this.byId = db.prepare<[string], FileRecord>('SELECT * FROM files WHERE id = ?');
  }

  /** Stores an uploaded file; the bytes go to disk before the record exists, so no record lacks its file. */
  save(
    accountId: number,
    provider: MessengerProvider,
    input: { name: string; mime: string; data: Buffer },
  ): FileRecord {
    const extension = path.extname(input.name).slice(1).toLowerCase();
    if (!ALLOWED_FILE_EXTENSIONS.includes(extension))
      throw new ServiceError(ApiCode.BadRequest, `file type .${extension} is not accepted`, 'file_type_not_accepted');
    if (input.data.length === 0) throw new ServiceError(ApiCode.BadRequest, 'the file is empty', 'file_empty');
    if (input.data.length > MAX_FILE_BYTES)
      throw new ServiceError(ApiCode.TooLarge, 'the file is larger than 15 MB', 'file_too_large');
    const id = randomUUID();
    fs.mkdirSync(this.dir, { recursive: true });
    fs.writeFileSync(path.join(this.dir, id), input.data);
    this.db
      .prepare(
        'INSERT INTO files (id, account_id, provider, name, mime, size, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(id, accountId, provider, input.name, input.mime, input.data.length, this.clock.now());
    return this.byId.get(id)!;
  }

  /** A stored file with its bytes (a provider gets a copy of it), or undefined when it is gone. */
  read(fileId: string): (FileRecord & { data: Buffer }) | undefined {
    const file = this.byId.get(fileId);
    if (!file) return undefined;
    try {
      return { ...file, data: fs.readFileSync(path.join(this.dir, file.id)) };
    } catch {
      return undefined;
    }
  }

  /** The file a send may attach: same account and same provider as the sender line, else 400. */
  forSend(accountId: number, fileId: string, lineProvider: Provider): FileRecord {
    const file = this.byId.get(fileId);
    if (!file || file.account_id !== accountId)
      throw new ServiceError(ApiCode.BadRequest, 'file_id not found', 'file_not_found');
    if (file.provider !== lineProvider)
      throw new ServiceError(
        ApiCode.BadRequest,
        `file_id is for ${file.provider}, the sender line is ${lineProvider}`,
        'file_wrong_provider',
      );
    return file;
  }
}
