// API keys of the current account: create (the key is shown once, in a modal with copy; closing it
// by Esc, × or a click outside before the key was copied asks first), list, revoke (after a
// confirmation: programs using the key stop working at once).
import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconCheck, IconCopy, IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { digits, formatDateTime } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { EmptyState } from '../EmptyState';
import type { ApiKeyInfo } from '../../api';

export function ApiKeysSettings() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { settings } = useStores();
  const { keys, newKey, createKey, revokeKey, dismissNewKey } = useStore(
    settings,
    useShallow((s) => ({
      keys: s.keys,
      newKey: s.newKey,
      createKey: s.createKey,
      revokeKey: s.revokeKey,
      dismissNewKey: s.dismissNewKey,
    })),
  );
  const [label, setLabel] = useState('');
  const [revoking, setRevoking] = useState<ApiKeyInfo | null>(null);
  // Whether the key on show was copied (the button, or a copy of its selected text), and whether
  // the modal is asking to close without that.
  const [copied, setCopied] = useState(false);
  const [askingClose, setAskingClose] = useState(false);
  const dismiss = () => {
    setCopied(false);
    setAskingClose(false);
    dismissNewKey();
  };

  return (
    <Stack>
      <Paper withBorder p="md" maw={560}>
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            if (await createKey(label.trim())) setLabel('');
          }}
        >
          <Group align="end">
            <TextInput
              label={t('settings.apiKeys.label')}
              placeholder={t('settings.apiKeys.labelPlaceholder')}
              value={label}
              onChange={(event) => setLabel(event.currentTarget.value)}
              style={{ flex: 1 }}
              data-testid="apikey-label"
            />
            <Button type="submit" leftSection={<IconKey size={16} />} data-testid="apikey-create">
              {t('settings.apiKeys.create')}
            </Button>
          </Group>
        </form>
      </Paper>
      {keys.length === 0 ? (
        <EmptyState
          testId="apikeys-empty"
          icon={<IconKey size={28} />}
          title={t('settings.apiKeys.empty')}
          hint={t('settings.apiKeys.emptyHint')}
        />
      ) : (
        <Paper withBorder>
          <Table data-testid="apikeys-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('settings.apiKeys.label')}</Table.Th>
                <Table.Th>{t('settings.apiKeys.hint')}</Table.Th>
                <Table.Th>{t('settings.apiKeys.created')}</Table.Th>
                <Table.Th>{t('settings.apiKeys.state')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.map((key) => (
                <Table.Tr key={key.id} data-testid="apikey-row" data-id={key.id} data-hint={key.hint}>
                  <Table.Td>{key.label || '—'}</Table.Td>
                  <Table.Td>
                    <Code className="ltr-value">…{key.hint}</Code>
                  </Table.Td>
                  <Table.Td>{formatDateTime(key.created_at, language)}</Table.Td>
                  <Table.Td>
                    {key.revoked_at === null ? (
                      <Badge color="teal" variant="light">
                        {t('settings.apiKeys.active')}
                      </Badge>
                    ) : (
                      <Badge color="gray" variant="light" data-testid="apikey-revoked">
                        {t('settings.apiKeys.revokedAt', { date: formatDateTime(key.revoked_at, language) })}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {key.revoked_at === null ? (
                      <Button
                        size="xs"
                        color="red"
                        variant="subtle"
                        onClick={() => setRevoking(key)}
                        data-testid="apikey-revoke"
                      >
                        {t('settings.apiKeys.revoke')}
                      </Button>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}

      <Modal
        closeButtonProps={{ 'aria-label': t('common.close') }}
        opened={newKey !== null}
        onClose={() => (copied ? dismiss() : setAskingClose(true))}
        title={t('settings.apiKeys.newTitle')}
        size="lg"
        data-testid="apikey-modal"
      >
        <Stack>
          <Text size="sm">{t('settings.apiKeys.newWarning')}</Text>
          <Group wrap="nowrap" gap="xs">
            <Code
              block
              style={{ flex: 1 }}
              className="ltr-value"
              data-testid="apikey-value"
              onCopy={() => {
                setCopied(true);
                setAskingClose(false);
              }}
            >
              {newKey}
            </Code>
            <CopyButton value={newKey ?? ''}>
              {({ copied: justCopied, copy }) => (
                <Button
                  variant="light"
                  color={justCopied ? 'teal' : undefined}
                  leftSection={justCopied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  onClick={() => {
                    copy();
                    setCopied(true);
                    setAskingClose(false);
                  }}
                  data-testid="apikey-copy"
                >
                  {justCopied ? t('common.copied') : t('common.copy')}
                </Button>
              )}
            </CopyButton>
          </Group>
          {askingClose ? (
            <Alert color="orange" data-testid="apikey-not-copied">
              <Stack gap="xs">
                <Text size="sm">{t('settings.apiKeys.notCopied')}</Text>
                <Group justify="flex-end" gap="xs">
                  <Button size="xs" variant="default" onClick={() => setAskingClose(false)} data-testid="apikey-back">
                    {t('settings.apiKeys.backToKey')}
                  </Button>
                  <Button size="xs" color="orange" onClick={dismiss} data-testid="apikey-close-anyway">
                    {t('settings.apiKeys.closeAnyway')}
                  </Button>
                </Group>
              </Stack>
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button onClick={dismiss} data-testid="apikey-done">
              {t('settings.apiKeys.saved')}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal
        closeButtonProps={{ 'aria-label': t('common.close') }}
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title={t('settings.apiKeys.revokeTitle')}
      >
        <Stack>
          <Text size="sm">
            {t('settings.apiKeys.revokeWarning', {
              hint: revoking ? `…${revoking.hint}` : '',
              label: revoking?.label || digits(revoking?.id ?? 0, language),
            })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRevoking(null)}>
              {t('common.cancel')}
            </Button>
            <Button
              color="red"
              onClick={async () => {
                if (revoking) await revokeKey(revoking.id);
                setRevoking(null);
              }}
              data-testid="apikey-revoke-confirm"
            >
              {t('settings.apiKeys.revoke')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
