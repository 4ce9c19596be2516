// IPC handlers of the verify/lookup templates. Thin: the rules (name, placeholders, the line, one
// account's templates only) live in messaging/templates.ts.
import type { templatesContracts } from '../../../shared/ipc/contracts/templates';
import type { AppServices, HandlersFor } from './handler';

export function templatesHandlers({ core }: AppServices): HandlersFor<typeof templatesContracts> {
  return {
    'templates:list': ({ account_id }) => core.templates.list(account_id),
    'templates:create': ({ account_id, ...input }) => core.templates.create(account_id, input),
    'templates:update': ({ account_id, id, ...changes }) => core.templates.update(id, changes, account_id),
    'templates:remove': ({ account_id, id }) => (core.templates.remove(id, account_id), null),
  };
}
