// Web mode only: "sign out other browsers". Every browser signed in with the printed address stays
// signed in for a month; this ends all of them but this one (after a confirmation), e.g. when the
// address was opened on a PC that should not have it. The printed address signs a browser in again.
import { Button, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { IpcCallError, signOutOtherBrowsers } from '../../../../shared/ipc';
import { useStores } from '../../stores/context';
import { errorMessage } from '../../stores/errors';

export function WebSessionSettings() {
  const { t } = useTranslation();
  const mode = useStore(useStores().session, (s) => s.settings?.mode);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  if (mode !== 'web') return null;
  const signOut = async () => {
    setBusy(true);
    const result = await signOutOtherBrowsers();
    setBusy(false);
    setConfirming(false);
    if (result.ok) notifications.show({ color: 'teal', message: t('webSession.done'), id: 'web-session-done' });
    else notifications.show({ color: 'red', message: errorMessage(new IpcCallError('session:rotate', result.error)) });
  };
  return (
    <Paper withBorder p="md" maw={640} mt="md" data-testid="web-session">
      <Stack gap="xs">
        <Text fw={600}>{t('webSession.title')}</Text>
        <Text size="xs" c="dimmed">
          {t('webSession.hint')}
        </Text>
        <Group>
          <Button variant="light" color="orange" onClick={() => setConfirming(true)} data-testid="web-session-sign-out">
            {t('webSession.signOutOthers')}
          </Button>
        </Group>
      </Stack>
      <Modal
        closeButtonProps={{ 'aria-label': t('common.close') }}
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('webSession.confirmTitle')}
      >
        <Stack>
          <Text size="sm">{t('webSession.confirmText')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
            <Button color="orange" loading={busy} onClick={() => void signOut()} data-testid="web-session-confirm">
              {t('webSession.signOutOthers')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
