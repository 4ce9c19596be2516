// IPC handlers of the messaging domain: the composer (preview = the acceptance path's dry run,
// send = the acceptance path), the message views and exports.
import { panelSend, preview } from '../messaging/compose';
import { DEFAULT_TIME_ZONE } from '../../../shared/time-zone';
import type { messagingContracts } from '../../../shared/ipc/contracts/messaging';
import type { AppServices, HandlersFor } from './handler';

export function messagingHandlers(services: AppServices): HandlersFor<typeof messagingContracts> {
  const { core, host } = services;
  return {
    'compose:preview': (input) => preview(core, input),
    'messages:send': (input) => panelSend(core, input),
    'messages:list': (input) => core.messaging.queries.list(input),
    'messages:count': async (input) => ({ count: await core.messaging.queries.count(input) }),
    'messages:timeline': ({ message_id, account_id }) => core.messaging.queries.timeline(message_id, account_id),
    'sends:list': (input) => core.sends.list(input),
    'sends:get': (input) => core.sends.get(input),
    'messages:export': async ({ format, export_id, language, time_zone, ...filter }) => {
      const result = await services.exporter.run(filter, format, export_id, {
        language: language ?? 'fa',
        timeZone: time_zone ?? DEFAULT_TIME_ZONE,
      });
      const web = host.mode === 'web' && host.exportUrl;
      return {
        export_id: result.export_id,
        format,
        rows: result.rows,
        path: web ? null : result.path,
        url: web ? host.exportUrl!(result.file_name) : null,
        file_name: result.file_name,
      };
    },
  };
}
