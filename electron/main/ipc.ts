// IPC wiring: exactly the contract channels on ipcMain, each answered only for the app's own top
// frame and through the one dispatcher (input validated, errors as results); push events go to
// every window of the app.
import { BrowserWindow, ipcMain } from 'electron';
import { registerHandlers, type IpcDispatcher } from '../service/ipc/dispatcher';
import { IpcErrorCode, type IpcResult } from '../../shared/ipc/contract';
import type { Channel } from '../../shared/ipc/contracts';
import { isTrustedFrame } from './security';

const refused: IpcResult<never> = {
  ok: false,
  error: { code: IpcErrorCode.Unauthorized, message: 'not the app’s own page' },
};

export function wireIpc(dispatcher: IpcDispatcher): () => void {
  const channels = registerHandlers((channel, handle) => {
    ipcMain.handle(channel, (event, input: unknown) => (isTrustedFrame(event.senderFrame) ? handle(input) : refused));
  }, dispatcher);

  const unsubscribe = dispatcher.services.events.subscribe((event, payload) => {
    for (const window of BrowserWindow.getAllWindows()) {
      if (!window.isDestroyed() && isTrustedFrame(window.webContents.mainFrame))
        window.webContents.send(event, payload);
    }
  });

  return () => {
    unsubscribe();
    for (const channel of channels as Channel[]) ipcMain.removeHandler(channel);
  };
}
