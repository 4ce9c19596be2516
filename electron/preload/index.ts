// The preload: the renderer's only door to the main process. It exposes `window.chapar` with three
// functions and nothing else: invoke(channel, input) for the contract channels on the allowlist,
// on(event, listener) for the contract push events, returning an unsubscribe function and never
// handing the Electron event object (which carries `sender`) to the page, and pathForFile(file),
// the path of a file the user dropped on the window (what the import wizard opens).
// The allowlist is shared/ipc/channels.ts, which the contracts registry is typed to match exactly;
// it is imported instead of the contracts themselves because a sandboxed preload cannot load zod.
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { CHANNEL_NAMES, EVENT_NAMES } from '../../shared/ipc/channels';
import type { ChaparBridge } from '../../shared/ipc/web-transport';
import type { IpcResult } from '../../shared/ipc/contract';

const channels: ReadonlySet<string> = new Set(CHANNEL_NAMES);
const events: ReadonlySet<string> = new Set(EVENT_NAMES);

const bridge: ChaparBridge = {
  invoke(channel: string, input: unknown): Promise<IpcResult<unknown>> {
    if (typeof channel !== 'string' || !channels.has(channel))
      return Promise.resolve({
        ok: false,
        error: { code: 404, message: `unknown channel ${String(channel).slice(0, 100)}` },
      });
    return ipcRenderer.invoke(channel, input) as Promise<IpcResult<unknown>>;
  },
  on(event: string, listener: (payload: unknown) => void): () => void {
    if (typeof event !== 'string' || !events.has(event))
      throw new Error(`unknown event ${String(event).slice(0, 100)}`);
    if (typeof listener !== 'function') throw new Error('listener must be a function');
    const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(event, forward);
    return () => {
      ipcRenderer.removeListener(event, forward);
    };
  },
  pathForFile(file: unknown): string {
    return file instanceof File ? webUtils.getPathForFile(file) : '';
  },
};

contextBridge.exposeInMainWorld('chapar', bridge);
