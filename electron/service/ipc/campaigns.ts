// IPC handlers of the campaigns domain: thin mappings onto core.campaigns (the rules live there).
import type { campaignsContracts } from '../../../shared/ipc/contracts/campaigns';
import type { AppServices, HandlersFor } from './dispatcher';
import { exportFile } from './export-files';

export function campaignsHandlers(services: AppServices): HandlersFor<typeof campaignsContracts> {
  const { core } = services;
  return {
    'campaigns:create': (input) =>
      core.campaigns.create(input.account_id, {
        sender: input.sender,
        name: input.name,
        template_body: input.template_body,
        send_datetime: input.send_datetime,
        inclusion_segments: input.inclusion_segments.map(String),
        exclusion_segments: input.exclusion_segments.map(String),
        links: input.links.map((link, index) => ({
          index,
          actual_url: link.actual_url,
          has_utm: link.has_utm ? 'true' : 'false',
        })),
        utm: input.utm,
        send_rate: input.send_rate === null ? undefined : String(input.send_rate),
        quiet_hours: input.quiet_hours ?? undefined,
      }),
    'campaigns:list': ({ account_id }) => {
      core.accounts.get(account_id);
      return core.campaigns.list(account_id);
    },
    'campaigns:report': ({ account_id, execution_id }) => core.campaigns.report(account_id, execution_id),
    'campaigns:messages': ({ account_id, execution_id, ...query }) =>
      core.campaigns.messages(account_id, execution_id, query),
    'campaigns:linkClicks': ({ account_id, execution_id }) => core.campaigns.linkClicks(account_id, execution_id),
    'campaigns:pause': ({ account_id, execution_id }) => core.campaigns.pause(account_id, execution_id),
    'campaigns:resume': ({ account_id, execution_id }) => core.campaigns.resume(account_id, execution_id),
    'campaigns:cancel': ({ account_id, execution_id }) => core.campaigns.cancel(account_id, execution_id),
    'campaigns:export': ({ account_id, execution_id, format, language, status, clicked, export_id }) =>
      exportFile(services, `campaign-${execution_id}`, format, export_id, (file, progress) =>
        core.campaigns.exportReport(
          account_id,
          execution_id,
          { format, language, file, filter: { status, clicked } },
          progress,
        ),
      ),
    'campaigns:segmentFromResults': async ({ account_id, execution_id, kind, name }) => {
      const { segmentId, jobId } = await core.campaigns.segmentFromResults(account_id, execution_id, kind, name);
      return { segment_id: segmentId, job_id: jobId };
    },
    'campaigns:resendFailed': ({ account_id, execution_id, name, send_datetime }) =>
      core.campaigns.resendToFailed(account_id, execution_id, { name, send_datetime }),
    'campaigns:linkSettings': () => core.campaigns.linkSettings(),
    'campaigns:setLinkSettings': ({ short_link_base }) => core.campaigns.setShortLinkBase(short_link_base),
  };
}
