// The account's verify/lookup templates (API version 1): a name the caller passes as `template`, a
// text with %token (and %token2, %token3, %token10, %token20) and, optionally, the line it goes
// out on. Written in Settings; read by verify/lookup through find(). The form of a name and a
// text is shared/verify-templates.ts's, so the preview and the lookup read it the same way.
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import type { Accounts } from '../accounts/accounts';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import { TEMPLATE_NAME, templateBodyFault } from '../../../shared/verify-templates';
import type { VerifyTemplate } from '../../../shared/ipc/contracts/templates';

export type { VerifyTemplate };

interface TemplateRow {
  id: number;
  account_id: number;
  name: string;
  body: string;
  sender: string | null;
  active: number;
  created_at: number;
  updated_at: number;
}

function toTemplate(row: TemplateRow): VerifyTemplate {
  return { ...row, active: row.active === 1 };
}

export interface TemplateInput {
  name: string;
  body: string;
  sender?: string | null | undefined;
  active?: boolean | undefined;
}

export type TemplateChanges = Partial<TemplateInput>;

export class Templates {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly accounts: Accounts,
  ) {}

  list(accountId: number): VerifyTemplate[] {
    this.accounts.get(accountId);
    return this.db
      .prepare<[number], TemplateRow>('SELECT * FROM verify_templates WHERE account_id = ? ORDER BY name')
      .all(accountId)
      .map(toTemplate);
  }

  /** The template verify/lookup names, active or not (the lookup tells an inactive one apart). */
  find(accountId: number, name: string): VerifyTemplate | undefined {
    const row = this.db
      .prepare<[number, string], TemplateRow>('SELECT * FROM verify_templates WHERE account_id = ? AND name = ?')
      .get(accountId, name);
    return row ? toTemplate(row) : undefined;
  }

  /** The template by id; with `accountId`, one of another account is as absent (404). */
  get(id: number, accountId?: number): VerifyTemplate {
    const row = this.db.prepare<[number], TemplateRow>('SELECT * FROM verify_templates WHERE id = ?').get(id);
    if (!row || (accountId !== undefined && row.account_id !== accountId))
      throw new ServiceError(ApiCode.NotFound, `template ${id}`, 'template_not_found');
    return toTemplate(row);
  }

  create(accountId: number, input: TemplateInput): VerifyTemplate {
    this.accounts.get(accountId);
    return this.db.transaction(() => {
      const name = this.checkedName(accountId, input.name);
      const body = checkedBody(input.body);
      const sender = this.checkedSender(accountId, input.sender ?? null);
      const now = this.clock.now();
      const info = this.db
        .prepare(
          `INSERT INTO verify_templates (account_id, name, body, sender, active, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(accountId, name, body, sender, input.active === false ? 0 : 1, now, now);
      return this.get(Number(info.lastInsertRowid));
    })();
  }

  /** Changes the fields given (a `sender` of null: the account's default line). */
  update(id: number, changes: TemplateChanges, accountId?: number): VerifyTemplate {
    return this.db.transaction(() => {
      const current = this.get(id, accountId);
      const name = changes.name === undefined ? current.name : this.checkedName(current.account_id, changes.name, id);
      const body = changes.body === undefined ? current.body : checkedBody(changes.body);
      const sender =
        changes.sender === undefined ? current.sender : this.checkedSender(current.account_id, changes.sender);
      const active = changes.active ?? current.active;
      this.db
        .prepare('UPDATE verify_templates SET name = ?, body = ?, sender = ?, active = ?, updated_at = ? WHERE id = ?')
        .run(name, body, sender, active ? 1 : 0, this.clock.now(), id);
      return this.get(id);
    })();
  }

  remove(id: number, accountId?: number): void {
    this.get(id, accountId);
    this.db.prepare('DELETE FROM verify_templates WHERE id = ?').run(id);
  }

  /** The name as stored (surrounding blanks dropped); its form and its uniqueness in the account. */
  private checkedName(accountId: number, typed: string, except?: number): string {
    const name = typed.trim();
    if (!TEMPLATE_NAME.test(name))
      throw new ServiceError(ApiCode.BadRequest, `template name ${JSON.stringify(typed)}`, 'template_name_invalid');
    const other = this.find(accountId, name);
    if (other && other.id !== except)
      throw new ServiceError(ApiCode.BadRequest, `a template named ${name} exists`, 'template_exists');
    return name;
  }

  /** null, or a line of the account, stored as the line's number (typed in any digits). */
  private checkedSender(accountId: number, typed: string | null): string | null {
    if (typed === null || typed.trim() === '') return null;
    const line = this.accounts.typedLine(accountId, typed);
    if (!line) throw new ServiceError(ApiCode.InvalidSender, `line ${typed}`, 'template_sender_not_owned');
    return line.number;
  }
}

function checkedBody(body: string): string {
  const fault = templateBodyFault(body);
  if (fault !== null) throw new ServiceError(ApiCode.BadRequest, 'template text', fault);
  return body;
}
