// IPC handlers of email: thin mappings onto core.email (the transports, the address and
// `{{variable}}` rules, batches, retries and where secrets are kept live in email/client). A
// result's export goes through the exports folder like a campaign's.
import type { emailContracts } from '../../../shared/ipc/contracts/email';
import type { AppServices, HandlersFor } from './handler';
import { exportFile } from './export-files';

export function emailHandlers(services: AppServices): HandlersFor<typeof emailContracts> {
  const { core } = services;
  return {
    'email:config': () => core.email.config(),
    'email:configure': (input) => core.email.configure(input),
    'email:testConnection': () => core.email.testConnection(),
    'email:preview': ({ offset, limit, ...draft }) => core.email.preview(draft, { offset, limit }),
    'email:send': (input) => core.email.send(input),
    'email:sends': ({ account_id }) => core.email.list(account_id),
    'email:get': ({ account_id, send_id }) => core.email.get(account_id, send_id),
    'email:recipients': ({ account_id, send_id, ...query }) => core.email.recipients(account_id, send_id, query),
    'email:cancel': ({ account_id, send_id }) => core.email.cancel(account_id, send_id),
    'email:export': ({ account_id, send_id, format, language, time_zone, statuses, export_id }) =>
      exportFile(services, `email-${send_id}`, format, export_id, (file, progress) =>
        core.email.exportResults(
          account_id,
          send_id,
          { format, language, timeZone: time_zone, file, statuses },
          progress,
        ),
      ),
  };
}
