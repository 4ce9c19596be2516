// IPC handlers of the campaigns domain: thin mappings onto core.campaigns (the rules live there).
import type { campaignsContracts } from '../../../shared/ipc/contracts/campaigns';
import type { AppServices, HandlersFor } from './handler';
import { exportFile } from './export-files';
import { formOfDraft } from '../campaigns/drafts';

export function campaignsHandlers(services: AppServices): HandlersFor<typeof campaignsContracts> {
  const { core } = services;
  return {
    'campaigns:create': ({ account_id, draft_id, ...fields }) =>
      core.campaigns.create(
        account_id,
        formOfDraft({ ...fields, time_zone: null }, core.clock.now()),
        draft_id === undefined ? {} : { draftId: draft_id },
      ),
    'campaigns:get': ({ account_id, campaign_id }) => core.campaigns.get(account_id, campaign_id),
    'campaigns:drafts': ({ account_id }) => {
      core.accounts.get(account_id);
      return core.campaigns.drafts.list(account_id);
    },
    'campaigns:draftGet': ({ account_id, draft_id }) => core.campaigns.drafts.get(account_id, draft_id),
    'campaigns:draftSave': ({ account_id, draft_id, fields }) => {
      core.accounts.get(account_id);
      return core.campaigns.drafts.save(account_id, draft_id ?? null, fields);
    },
    'campaigns:draftDelete': ({ account_id, draft_id }) => ({
      deleted: core.campaigns.drafts.delete(account_id, draft_id),
    }),
    'campaigns:quote': ({ account_id, fields, seed, quote_key }) =>
      core.campaigns.quote(account_id, fields, { seed, quoteKey: quote_key }),
    'campaigns:sendTest': ({ account_id, fields, receptor }) => core.campaigns.sendTest(account_id, fields, receptor),
    'campaigns:list': ({ account_id }) => {
      core.accounts.get(account_id);
      return core.campaigns.list(account_id);
    },
    'campaigns:report': ({ account_id, execution_id }) => core.campaigns.report(account_id, execution_id),
    'campaigns:messages': ({ account_id, execution_id, ...query }) =>
      core.campaigns.messages(account_id, execution_id, query),
    'campaigns:messageCount': ({ account_id, execution_id, status, clicked }) => ({
      count: core.campaigns.messageCount(account_id, execution_id, { status, clicked }),
    }),
    'campaigns:messageClicks': ({ account_id, execution_id, message_id }) =>
      core.campaigns.messageClicks(account_id, execution_id, message_id),
    'campaigns:deliveryChart': ({ account_id, execution_id }) => core.campaigns.deliveryChart(account_id, execution_id),
    'campaigns:linkClicks': ({ account_id, execution_id }) => core.campaigns.linkClicks(account_id, execution_id),
    'campaigns:pause': ({ account_id, execution_id }) => core.campaigns.pause(account_id, execution_id),
    'campaigns:resume': ({ account_id, execution_id }) => core.campaigns.resume(account_id, execution_id),
    'campaigns:cancel': ({ account_id, execution_id }) => core.campaigns.cancel(account_id, execution_id),
    'campaigns:seriesPause': ({ account_id, campaign_id }) => core.campaigns.seriesPause(account_id, campaign_id),
    'campaigns:seriesResume': ({ account_id, campaign_id }) => core.campaigns.seriesResume(account_id, campaign_id),
    'campaigns:seriesEnd': ({ account_id, campaign_id }) => core.campaigns.seriesEnd(account_id, campaign_id),
    'campaigns:export': ({ account_id, execution_id, format, language, time_zone, status, clicked, export_id }) =>
      exportFile(
        services,
        `campaign-${execution_id}`,
        format,
        export_id,
        (file, progress) =>
          core.campaigns.exportReport(
            account_id,
            execution_id,
            { format, language, timeZone: time_zone, file, filter: { status, clicked } },
            progress,
          ),
        core.campaigns.reportFileTitle(account_id, execution_id, language, time_zone),
      ),
    'campaigns:segmentFromResults': async ({ account_id, execution_id, kind, name }) => {
      const { segmentId, jobId } = await core.campaigns.segmentFromResults(account_id, execution_id, kind, name);
      return { segment_id: segmentId, job_id: jobId };
    },
    'campaigns:resendQuote': ({ account_id, execution_id, language }) =>
      core.campaigns.resendQuote(account_id, execution_id, language),
    'campaigns:resendFailed': ({ account_id, execution_id, name, send_datetime, language }) =>
      core.campaigns.resendToFailed(account_id, execution_id, { name, send_datetime, language }),
    'campaigns:linkSettings': () => core.campaigns.linkSettings(),
    'campaigns:setLinkSettings': ({ short_link_base }) => core.campaigns.setShortLinkBase(short_link_base),
  };
}
