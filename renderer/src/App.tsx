// The root: providers (Mantine with the language's direction, i18n, stores), the live wiring of
// the stores, the connection to the core (web mode: lost and found again), and the shell with the
// current page.
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { DirectionProvider, MantineProvider, useDirection } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { I18nextProvider } from 'react-i18next';
import { useStore } from 'zustand';
import type { Api } from './api';
import { connectStores, type Stores } from './stores';
import { refreshAfterReconnect } from './stores/reconnect';
import { keepDraftsLocally } from './stores/local-drafts';
import { StoresProvider } from './stores/context';
import { applyLanguage, i18n } from './i18n';
import { directionOf } from './lib/format';
import { theme } from './theme';
import { LANGUAGE_COOKIE } from '../../shared/security';
import { Shell } from './components/Shell';

export function App({ api, stores }: { api: Api; stores: Stores }) {
  useEffect(() => {
    const stop = connectStores(api, stores);
    // What is typed outlives a reload, a restart of the server and a sign-in.
    const stopKeeping = keepDraftsLocally(stores);
    void stores.session.getState().loadSettings();
    void stores.session.getState().loadAccounts();
    return () => {
      stopKeeping();
      stop();
    };
  }, [api, stores]);
  const offline = useOffline(api, stores);

  const initialDirection = directionOf(stores.session.getState().language);
  return (
    <I18nextProvider i18n={i18n}>
      <DirectionProvider initialDirection={initialDirection} detectDirection={false}>
        <MantineProvider theme={theme}>
          <StoresProvider stores={stores}>
            <LanguageSync stores={stores} />
            <Notifications position="top-center" />
            <Shell offline={offline} />
          </StoresProvider>
        </MantineProvider>
      </DirectionProvider>
    </I18nextProvider>
  );
}

/** Whether the core is out of reach now; once it is back, the stores read again what they show. */
function useOffline(api: Api, stores: Stores): boolean {
  const connection = api.connection;
  const subscribe = useCallback(
    (notify: () => void) => connection?.subscribe(notify) ?? (() => undefined),
    [connection],
  );
  const offline = useSyncExternalStore(subscribe, () => connection?.state() === 'offline');
  useEffect(
    () =>
      connection?.subscribe((state) => {
        if (state === 'online') refreshAfterReconnect(stores);
      }),
    [connection, stores],
  );
  return offline;
}

/** Keeps i18n, <html dir lang> and Mantine's direction in step with the session's language. */
function LanguageSync({ stores }: { stores: Stores }) {
  const language = useStore(stores.session, (s) => s.language);
  const { setDirection } = useDirection();
  useEffect(() => {
    applyLanguage(language);
    setDirection(directionOf(language));
    rememberLanguage(language);
  }, [language, setDirection]);
  return null;
}

/**
 * The language as a cookie of this address (web mode), so the pages the server makes itself, such
 * as the sign-in page a signed-out browser is shown, answer in it too.
 */
function rememberLanguage(language: string): void {
  try {
    if (globalThis.location?.protocol.startsWith('http'))
      document.cookie = `${LANGUAGE_COOKIE}=${language}; path=/; max-age=31536000; SameSite=Strict`;
  } catch {
    // cookies denied: the server goes by the browser's languages
  }
}
