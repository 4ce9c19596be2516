// IPC handlers of the campaigns domain: thin mappings onto core.campaigns (the rules live there).
import type { campaignsContracts } from '../../../shared/ipc/contracts/campaigns';
import type { AppServices, HandlersFor } from './dispatcher';

export function campaignsHandlers({ core }: AppServices): HandlersFor<typeof campaignsContracts> {
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
    'campaigns:linkSettings': () => core.campaigns.linkSettings(),
    'campaigns:setLinkSettings': ({ short_link_base }) => core.campaigns.setShortLinkBase(short_link_base),
  };
}
