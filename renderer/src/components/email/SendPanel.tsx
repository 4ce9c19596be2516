// The send: how the email goes out (the sandbox says nothing leaves this computer), the button
// that opens the confirmation, and the confirmation itself: how many messages, to which segment,
// from whom, through what, asked once. Its confirm sends what was counted, under the request id
// the dialog was opened with (a double click sends once); then the page moves to the results.
import { Alert, Anchor, Button, Group, Modal, Paper, Stack, Table, Text } from '@mantine/core';
import { IconSend, IconShieldCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { emailSelectors } from '../../stores/email';
import type { EmailConfig } from '../../../../shared/ipc/contracts/email';
import { formatNumber, isolate } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { navigate } from '../useRoute';
import { DirectedText } from '../DirectedText';

/** How the email goes out, in a sentence. */
export function useTransportText(config: EmailConfig | null, transport = config?.transport): string {
  const { t } = useTranslation();
  if (!config || !transport) return '';
  if (transport === 'provider') return t('email.transport.provider', { url: isolate(config.provider.url) });
  if (transport === 'smtp') return t('email.transport.smtp', { host: isolate(config.smtp.host) });
  return t('email.transport.sandbox');
}

export function SendPanel() {
  const { t } = useTranslation();
  const { email } = useStores();
  const { config, sending, previewing, openConfirmation } = useStore(
    email,
    useShallow((s) => ({
      config: s.config,
      sending: s.sending,
      previewing: s.previewing,
      openConfirmation: s.openConfirmation,
    })),
  );
  const preview = useStore(email, emailSelectors.currentPreview);
  const transport = useTransportText(config);
  // What the send would refuse is the core's to say (the preview's problems), not a copy of its rules.
  const ready = preview !== null && preview.valid > 0 && preview.problems.length === 0 && !sending;
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        {config ? (
          <Group gap={6} wrap="nowrap" align="start" data-testid="email-transport" data-value={config.transport}>
            <IconShieldCheck
              size={18}
              color={`var(--mantine-color-${config.transport === 'sandbox' ? 'teal' : 'blue'}-7)`}
              style={{ flexShrink: 0 }}
            />
            <Text size="sm">{transport}</Text>
            <Anchor
              size="sm"
              href="#/settings/email"
              onClick={(event: React.MouseEvent) => {
                event.preventDefault();
                navigate('settings/email');
              }}
              style={{ flexShrink: 0 }}
              data-testid="email-transport-settings"
            >
              {t('email.send.changeTransport')}
            </Anchor>
          </Group>
        ) : null}
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm" c="dimmed">
            {t('email.send.hint')}
          </Text>
          <Button
            leftSection={<IconSend size={16} />}
            disabled={!ready}
            loading={sending || (previewing && preview === null)}
            onClick={() => void openConfirmation()}
            data-testid="email-send"
            style={{ flexShrink: 0 }}
          >
            {t('email.send.button')}
          </Button>
        </Group>
      </Stack>
      <SendConfirmation />
    </Paper>
  );
}

function SendConfirmation() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { email } = useStores();
  const { confirmation, sending, sendError, config, closeConfirmation, confirmSend } = useStore(
    email,
    useShallow((s) => ({
      confirmation: s.confirmation,
      sending: s.sending,
      sendError: s.sendError,
      config: s.config,
      closeConfirmation: s.closeConfirmation,
      confirmSend: s.confirmSend,
    })),
  );
  const transport = useTransportText(config);
  const confirm = async () => {
    const send = await confirmSend();
    if (send) navigate(`email/send/${send.id}`);
  };
  const draft = confirmation?.draft;
  const from = draft ? (draft.from.name ? `${draft.from.name} <${draft.from.email}>` : draft.from.email) : '';
  const n = formatNumber(confirmation?.count ?? 0, language);
  return (
    <Modal
      opened={confirmation !== null}
      onClose={closeConfirmation}
      title={t('email.confirm.title')}
      closeOnClickOutside={!sending}
      closeOnEscape={!sending}
      withCloseButton={!sending}
      data-testid="email-confirm"
    >
      {confirmation && draft ? (
        <Stack gap="sm" data-testid="email-confirm-body" data-count={confirmation.count}>
          <Text fw={700} size="lg" data-testid="email-confirm-count" data-value={confirmation.count}>
            {t('email.confirm.count', { count: confirmation.count, n })}
          </Text>
          <Table withRowBorders={false} verticalSpacing={2} fz="sm">
            <Table.Tbody>
              <Row label={t('email.confirm.segment')} testId="email-confirm-segment">
                <bdi>{confirmation.segmentName}</bdi>
              </Row>
              <Row label={t('email.confirm.from')} testId="email-confirm-from">
                <bdi dir="ltr">{from}</bdi>
              </Row>
              {draft.reply_to ? (
                <Row label={t('email.confirm.replyTo')} testId="email-confirm-reply-to">
                  <bdi dir="ltr">{draft.reply_to.email}</bdi>
                </Row>
              ) : null}
              <Row label={t('email.confirm.subject')} testId="email-confirm-subject">
                <DirectedText text={draft.subject} />
              </Row>
              <Row label={t('email.confirm.transport')} testId="email-confirm-transport">
                {transport}
              </Row>
            </Table.Tbody>
          </Table>
          <Text size="sm" c="dimmed">
            {t('email.confirm.once')}
          </Text>
          {sendError ? (
            <Alert color="red" data-testid="email-send-error">
              {sendError}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={closeConfirmation} disabled={sending} data-testid="email-confirm-cancel">
              {t('email.confirm.back')}
            </Button>
            <Button
              leftSection={<IconSend size={16} />}
              loading={sending}
              onClick={() => void confirm()}
              data-testid="email-confirm-send"
            >
              {t('email.confirm.send', { count: confirmation?.count ?? 0, n })}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

function Row({ label, testId, children }: { label: string; testId: string; children: React.ReactNode }) {
  return (
    <Table.Tr>
      <Table.Td c="dimmed" w={110} style={{ verticalAlign: 'top' }}>
        {label}
      </Table.Td>
      <Table.Td data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Table.Td>
    </Table.Tr>
  );
}
