// Shows the stores' errors as notifications, once each. The service's messages are Persian and
// ready to display (spec 7), so they are shown as they come.
import { useEffect } from 'react';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../stores/context';

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
  useEffect(() => {
    for (const message of key.split('\u0000')) {
      if (message) notifications.show({ id: message, color: 'red', title: t('common.error'), message });
    }
  }, [key, t]);
  return null;
}
