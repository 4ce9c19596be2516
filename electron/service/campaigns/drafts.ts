// The app editor's drafts: a campaign as it is being typed, saved as the user goes (nothing is
// checked but the shape; the quote says what creation would refuse). Creating the campaign deletes
// its draft in the same transaction, so a draft never turns into two campaigns.
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import { filterParts } from './form';
import {
  CampaignDraftFieldsSchema,
  type CampaignDraft,
  type CampaignDraftFields,
  type CampaignForm,
} from '../../../shared/campaigns';
import { seriesFormFields } from './series-form';

/** Drafts an account may keep: a guard against a runaway client, far above any real use. */
export const MAX_DRAFTS = 1_000;

interface DraftRow {
  id: number;
  account_id: number;
  fields: string;
  created_at: number;
  updated_at: number;
}

export class Drafts {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  list(accountId: number): CampaignDraft[] {
    return this.db
      .prepare<[number], DraftRow>(
        'SELECT * FROM campaign_drafts WHERE account_id = ? ORDER BY updated_at DESC, id DESC',
      )
      .all(accountId)
      .map(toDraft);
  }

  get(accountId: number, draftId: number): CampaignDraft {
    const row = this.db.prepare<[number], DraftRow>('SELECT * FROM campaign_drafts WHERE id = ?').get(draftId);
    if (!row || row.account_id !== accountId)
      throw new ServiceError(ApiCode.BadRequest, `draft ${draftId} unknown`, 'draft_not_found');
    return toDraft(row);
  }

  /** Creates a draft (draftId null) or replaces one's fields. */
  save(accountId: number, draftId: number | null, fields: CampaignDraftFields): CampaignDraft {
    const checked = CampaignDraftFieldsSchema.parse(fields);
    const now = this.clock.now();
    if (draftId === null) {
      const count = this.db
        .prepare<[number], number>('SELECT count(*) FROM campaign_drafts WHERE account_id = ?')
        .pluck()
        .get(accountId)!;
      if (count >= MAX_DRAFTS)
        throw new ServiceError(ApiCode.TooLarge, `at most ${MAX_DRAFTS} drafts`, 'too_many_drafts');
      const id = Number(
        this.db
          .prepare('INSERT INTO campaign_drafts (account_id, fields, created_at, updated_at) VALUES (?, ?, ?, ?)')
          .run(accountId, JSON.stringify(checked), now, now).lastInsertRowid,
      );
      return this.get(accountId, id);
    }
    this.get(accountId, draftId);
    this.db
      .prepare('UPDATE campaign_drafts SET fields = ?, updated_at = ? WHERE id = ?')
      .run(JSON.stringify(checked), now, draftId);
    return this.get(accountId, draftId);
  }

  /** True when there was such a draft (a second delete is not an error: the editor may race its own autosave). */
  delete(accountId: number, draftId: number): boolean {
    return (
      this.db.prepare('DELETE FROM campaign_drafts WHERE id = ? AND account_id = ?').run(draftId, accountId).changes > 0
    );
  }
}

function toDraft(row: DraftRow): CampaignDraft {
  // Read leniently: a draft written by an older version keeps what still parses.
  const parsed = CampaignDraftFieldsSchema.safeParse(JSON.parse(row.fields));
  return {
    draft_id: row.id,
    account_id: row.account_id,
    fields: parsed.success ? parsed.data : CampaignDraftFieldsSchema.parse({}),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * Draft fields as the spec's campaign form (what the HTTP API collects from its wire), so the app
 * is checked by the very same rules. "Now" is the given time.
 */
export function formOfDraft(fields: CampaignDraftFields, now: number): CampaignForm {
  return {
    sender: fields.sender,
    name: fields.name,
    template_body: fields.template_body,
    send_datetime: fields.send_datetime ?? new Date(now).toISOString(),
    inclusion_segments: fields.inclusion_segments.map(String),
    exclusion_segments: fields.exclusion_segments.map(String),
    links: fields.links.map((link, index) => ({
      index,
      actual_url: link.actual_url,
      has_utm: link.has_utm ? 'true' : 'false',
    })),
    utm: fields.utm,
    send_rate: fields.send_rate === null ? undefined : String(fields.send_rate),
    quiet_hours: fields.quiet_hours ?? undefined,
    track_links: fields.track_links ? 'true' : 'false',
    ...seriesFormFields(fields.repeat, fields.trigger),
    filters: filterParts(fields.filter),
  };
}
