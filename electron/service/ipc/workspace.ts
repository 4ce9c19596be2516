// IPC handlers of the workspace's upkeep (workspace/housekeeping.ts): its size, the retention
// setting, preview and runs, and compaction. Web mode never shows the server's folders.
import type { workspaceContracts } from '../../../shared/ipc/contracts/workspace';
import type { AppServices, HandlersFor } from './handler';

export function workspaceHandlers({ core, host }: AppServices): HandlersFor<typeof workspaceContracts> {
  const housekeeping = core.housekeeping;
  const sized = async () => {
    const size = await housekeeping.size();
    return host.mode === 'web' ? { ...size, archive_dir: null } : size;
  };
  return {
    'workspace:size': sized,
    'workspace:retention': () => housekeeping.retentionState(),
    'workspace:setRetention': ({ months, action }) => housekeeping.setRetention(months, action),
    'workspace:retentionPreview': ({ months, action }) => housekeeping.retentionPreview(months, action),
    'workspace:applyRetention': ({ months, action, cutoff }) => housekeeping.applyRetention(months, action, cutoff),
    'workspace:compact': async () => {
      const done = await housekeeping.compact();
      return { ...done, size: host.mode === 'web' ? { ...done.size, archive_dir: null } : done.size };
    },
  };
}
