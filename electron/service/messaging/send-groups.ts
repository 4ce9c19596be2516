// Send groups: sends that are shown and filtered as one (a campaign execution, whose batches are
// each a send). Messaging lists them beside its direct sends (sends.ts) and filters messages by
// them (queries.ts), but the domain that groups the sends is above messaging and owns their
// tables, so it gives messaging its SQL at composition (campaigns/send-groups.ts). Each read is a
// fragment of the statement it enters, which stays one statement with the plan it had.
export interface SendGroups {
  /** SELECT of the ids of the sends of the group whose id is the one parameter `?`, for `send_id IN (…)`. */
  sendIdsSql(): string;
  /**
   * A scalar subquery: how many groups there are; `and` is further conditions on `account_id`,
   * each starting with AND (with their `?` parameters, in order).
   */
  countSql(and: string): string;
  /**
   * SELECT of the groups as rows of the "by send" list (`id`, `account_id`, `created_at`: when it
   * started, or is to start), newest first, at most the last parameter `?`; `and` as in countSql.
   */
  rowsSql(and: string): string;
  /** SELECT of one group as rowsSql's row, by its id: the one parameter `?`. */
  rowSql(): string;
  /** The campaign a group's row names: its name, sender line and text as written. */
  campaign(campaignId: number): { id: number; name: string; sender: string; template_body: string } | undefined;
}
