// What a draft must be before it is previewed or sent: a sender that is an address (a reply-to
// too, when given), a subject, a body; and a ready segment with an EMAIL column. The segment's
// members become recipients (recipients.ts) with the template's variables mapped to its columns.
import { ServiceError } from '../../errors';
import { ApiCode } from '../../../../shared/status';
import { emailDraftProblems } from '../../../../shared/email';
import type { EmailDraft, EmailParty } from '../../../../shared/ipc/contracts/email';
import type { Segments } from '../../contacts';
import { segmentNotReady } from '../../contacts/segments';
import { cleanParty } from './config';
import { emailColumn, mapVariables, type ClassifiedMembers, type VariableMap } from './recipients';

export interface CheckedTemplate {
  from: EmailParty;
  replyTo: EmailParty | null;
  subject: string;
  /** null when the draft has none (or only white space). */
  text: string | null;
  html: string | null;
}

export interface PreparedDraft {
  template: CheckedTemplate;
  segment: { id: number; name: string; columns: string[] };
  emailColumn: string;
  variables: VariableMap;
  classified: ClassifiedMembers;
}

/** A segment's members sorted into addressed and skipped (recipients.ts classifyMembers), maybe cached. */
export type ClassifyMembers = (accountId: number, segment: { id: number; columns: string[] }) => ClassifiedMembers;

/** The draft's template as it stands, unchecked: the preview shows a half-written draft too. */
export function readTemplate(draft: EmailDraft): CheckedTemplate {
  return {
    from: cleanParty(draft.from),
    replyTo: draft.reply_to ? cleanParty(draft.reply_to) : null,
    subject: draft.subject,
    text: draft.text !== undefined && draft.text.trim() !== '' ? draft.text : null,
    html: draft.html !== undefined && draft.html.trim() !== '' ? draft.html : null,
  };
}

/**
 * Every reason a send would refuse this draft's template for, in the order to fix them (the rule is
 * shared/email.ts's, which the renderer's fake of these channels reads too).
 */
export function templateProblems(draft: EmailDraft): ServiceError[] {
  return emailDraftProblems(draft).map(({ reason, detail }) => new ServiceError(ApiCode.BadRequest, detail, reason));
}

export function checkTemplate(draft: EmailDraft): CheckedTemplate {
  const [problem] = templateProblems(draft);
  if (problem) throw problem;
  return readTemplate(draft);
}

/**
 * The draft against its segment. A send checks the template first (`check`); the preview does
 * not, so the counts and skipped rows show as soon as a segment is picked, before the message is
 * written (the send still refuses what is missing).
 */
export function prepareDraft(
  segments: Segments,
  draft: EmailDraft,
  { check, classify }: { check: boolean; classify: ClassifyMembers },
): PreparedDraft {
  const template = check ? checkTemplate(draft) : readTemplate(draft);
  const segment = segments.get(draft.account_id, draft.segment_id);
  if (segment.status !== 'ready') throw segmentNotReady(segment.id, segment.status);
  const column = emailColumn(segment.columns);
  if (column === null)
    throw new ServiceError(
      ApiCode.BadRequest,
      `segment ${segment.id} has no EMAIL column to read addresses from`,
      'email_column_missing',
    );
  const variables = mapVariables(template, segment.columns);
  return {
    template,
    segment: { id: segment.id, name: segment.name, columns: segment.columns },
    emailColumn: column,
    variables,
    classified: classify(draft.account_id, segment),
  };
}
