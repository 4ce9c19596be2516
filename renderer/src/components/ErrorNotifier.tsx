// Shows the stores' errors as notifications, once each, as the stores word them (errorMessage:
// in the UI's language). A call that could not reach the core is left to the shell's offline
// banner: one banner, not a notification per store.
import { useEffect, useRef } from 'react';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../stores/context';
import { offlineMessage } from '../stores/errors';

export function ErrorNotifier() {
  const { t } = useTranslation();
  const stores = useStores();
  const errors = [
    useStore(stores.session, (s) => s.error),
    useStore(stores.messages, (s) => s.error),
    useStore(stores.settings, (s) => s.error),
    useStore(stores.dashboard, (s) => s.error),
    useStore(stores.contacts, (s) => s.error),
  ];
  const key = errors.join('\u0000');
  // Shown when it appears, not again when the language changes (a store keeps its last error).
  const shown = useRef<string[]>([]);
  useEffect(() => {
    const offline = offlineMessage();
    const messages = key.split('\u0000');
    for (const message of messages) {
      if (message && message !== offline && !shown.current.includes(message))
        notifications.show({ id: message, color: 'red', title: t('common.error'), message });
    }
    shown.current = messages;
  }, [key, t]);
  return null;
}
