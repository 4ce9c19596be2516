// Sender lines of the current account and their permissions. A new number is stored as the service
// normalizes it (Latin digits) and must have its provider's form (shared/lines.ts); the field says
// which form, and why a number was refused. Removing a line that never sent deletes it; one with
// history can only be deactivated (the service keeps its messages). Each line shows who delivers
// its messages (its gateway: GatewayDialog sets it) and, paused at its provider, why; the queues
// of the lines on a provider follow the table (GatewayQueue).
import {
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAntenna, IconPlugConnected } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { LINE_PERMISSIONS, PROVIDERS, type LinePermission, type Provider } from '../../../../shared/status';
import type { Line } from '../../api';
import { EmptyState } from '../EmptyState';
import { GatewayDialog } from './GatewayDialog';
import { GatewayQueues } from './GatewayQueue';
import { gatewaysFor, gatewayTitle, explanationOf } from '../../lib/gateways';
import { digits, phoneText } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { gatewaysSelectors } from '../../stores/gateways';
import { PhoneNumber } from '../PhoneNumber';

function permissionsOf(line: Line): LinePermission[] {
  return LINE_PERMISSIONS.filter((p) => line[p]);
}

export function LinesSettings() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { settings, compose } = useStores();
  const { lines, saveLine, addLine, removeLine, deleteLine } = useStore(
    settings,
    useShallow((s) => ({
      lines: s.lines,
      saveLine: s.saveLine,
      addLine: s.addLine,
      removeLine: s.removeLine,
      deleteLine: s.deleteLine,
    })),
  );
  // The composer lists lines too: refresh it after a change here.
  const reloadCompose = () => void compose.getState().load(compose.getState().accountId);
  const [number, setNumber] = useState('');
  const [provider, setProvider] = useState<Provider>('sms');
  const [refused, setRefused] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Line | null>(null);
  const [deleteRefused, setDeleteRefused] = useState<string | null>(null);
  const [editing, setEditing] = useState<Line | null>(null);

  const toggle = async (line: Line, permission: LinePermission, on: boolean) => {
    const permissions = on ? [...permissionsOf(line), permission] : permissionsOf(line).filter((p) => p !== permission);
    if (await saveLine({ number: line.number, provider: line.provider, permissions, active: line.active }))
      reloadCompose();
  };

  const closeDelete = () => {
    setDeleting(null);
    setDeleteRefused(null);
  };

  return (
    <Stack>
      {lines.length === 0 ? (
        <EmptyState
          testId="lines-empty"
          icon={<IconAntenna size={28} />}
          title={t('settings.lines.empty')}
          hint={t('settings.lines.emptyHint')}
        />
      ) : (
        <Paper withBorder>
          <Table data-testid="lines-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('settings.lines.number')}</Table.Th>
                <Table.Th>{t('settings.lines.provider')}</Table.Th>
                <Table.Th>{t('gateways.column')}</Table.Th>
                <Table.Th>{t('settings.lines.can_send_api_campaign')}</Table.Th>
                <Table.Th>{t('settings.lines.can_send_panel_campaign')}</Table.Th>
                <Table.Th>{t('settings.lines.state')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {lines.map((line) => (
                <Table.Tr key={line.id} data-testid="line-row" data-number={line.number}>
                  <Table.Td>
                    <PhoneNumber number={line.number} />
                  </Table.Td>
                  <Table.Td>{t(`provider.${line.provider}`)}</Table.Td>
                  <Table.Td>
                    <GatewayCell line={line} />
                  </Table.Td>
                  {LINE_PERMISSIONS.map((permission) => (
                    <Table.Td key={permission}>
                      <Checkbox
                        checked={line[permission]}
                        onChange={(event) => void toggle(line, permission, event.currentTarget.checked)}
                        aria-label={t(`settings.lines.${permission}`)}
                      />
                    </Table.Td>
                  ))}
                  <Table.Td>
                    <Badge color={line.active ? 'teal' : 'gray'} variant="light">
                      {line.active ? t('common.active') : t('common.inactive')}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      {gatewaysFor(line.provider).length > 1 ? (
                        <Button
                          size="xs"
                          variant="subtle"
                          leftSection={<IconPlugConnected size={14} />}
                          onClick={() => setEditing(line)}
                          data-testid="line-gateway-edit"
                        >
                          {t('gateways.edit')}
                        </Button>
                      ) : null}
                      {line.active ? (
                        <Button
                          size="xs"
                          variant="subtle"
                          color="orange"
                          onClick={async () => (await removeLine(line.number), reloadCompose())}
                          data-testid="line-deactivate"
                        >
                          {t('settings.lines.deactivate')}
                        </Button>
                      ) : (
                        <Button
                          size="xs"
                          variant="subtle"
                          onClick={async () => {
                            if (
                              await saveLine({
                                number: line.number,
                                provider: line.provider,
                                permissions: permissionsOf(line),
                                active: true,
                              })
                            )
                              reloadCompose();
                          }}
                          data-testid="line-activate"
                        >
                          {t('settings.lines.activate')}
                        </Button>
                      )}
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        onClick={() => setDeleting(line)}
                        data-testid="line-delete"
                      >
                        {t('settings.lines.delete')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      <GatewayQueues />
      <Paper withBorder p="md" maw={720}>
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            const why = await addLine({
              number: number.trim(),
              provider,
              permissions: ['can_send_api_campaign', 'can_send_panel_campaign'],
            });
            setRefused(why);
            if (why === null) {
              // The number as stored (Latin digits), which may differ from what was typed.
              const added = settings.getState().lines.at(-1)?.number ?? number.trim();
              notifications.show({
                color: 'teal',
                message: t('settings.lines.added', { number: phoneText(added, language) }),
              });
              setNumber('');
              reloadCompose();
            }
          }}
        >
          <Stack gap={6}>
            <Group align="end">
              <TextInput
                label={t('settings.lines.newNumber')}
                value={number}
                onChange={(event) => {
                  setNumber(event.currentTarget.value);
                  setRefused(null);
                }}
                error={refused !== null}
                dir="ltr"
                data-testid="line-number"
                style={{ flex: 1 }}
              />
              <Select
                label={t('settings.lines.provider')}
                data={PROVIDERS.map((p) => ({ value: p, label: t(`provider.${p}`) }))}
                value={provider}
                allowDeselect={false}
                onChange={(value) => {
                  if (value) setProvider(value as Provider);
                  setRefused(null);
                }}
                w={140}
                data-testid="line-provider"
              />
              <Button type="submit" disabled={!number.trim()} data-testid="line-add">
                {t('settings.lines.add')}
              </Button>
            </Group>
            {refused !== null ? (
              <Text size="sm" c="red" data-testid="line-refused">
                {refused}
              </Text>
            ) : (
              <Text size="xs" c="dimmed" data-testid="line-hint">
                {provider === 'sms'
                  ? t('settings.lines.numberHintSms')
                  : t('settings.lines.numberHintMessenger', { provider: t(`provider.${provider}`) })}
              </Text>
            )}
          </Stack>
        </form>
      </Paper>

      <GatewayDialog line={editing} onClose={() => setEditing(null)} />
      <Modal
        closeButtonProps={{ 'aria-label': t('common.close') }}
        opened={deleting !== null}
        onClose={closeDelete}
        title={t('settings.lines.deleteTitle')}
        centered
      >
        <Stack>
          {deleteRefused ? null : (
            <Text size="sm">
              {t('settings.lines.deleteWarning', { number: phoneText(deleting?.number ?? '', language) })}
            </Text>
          )}
          {deleteRefused ? (
            <Text size="sm" c="red" data-testid="line-delete-refused">
              {deleteRefused}
            </Text>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={closeDelete}>
              {t('common.cancel')}
            </Button>
            {deleteRefused && deleting?.active ? (
              <Button
                color="orange"
                onClick={async () => {
                  await removeLine(deleting.number);
                  reloadCompose();
                  closeDelete();
                }}
                data-testid="line-delete-deactivate"
              >
                {t('settings.lines.deactivate')}
              </Button>
            ) : null}
            <Button
              color="red"
              disabled={deleteRefused !== null}
              onClick={async () => {
                if (!deleting) return;
                const why = await deleteLine(deleting.number);
                if (why !== null) return setDeleteRefused(why);
                notifications.show({
                  color: 'teal',
                  message: t('settings.lines.deleted', { number: phoneText(deleting.number, language) }),
                });
                reloadCompose();
                closeDelete();
              }}
              data-testid="line-delete-confirm"
            >
              {t('settings.lines.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** Who delivers the line's messages; paused at its provider, a badge with the code and its meaning. */
function GatewayCell({ line }: { line: Line }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const queue = useStore(useStores().gateways, gatewaysSelectors.queueOf(line.number));
  const pause = queue?.paused ?? null;
  return (
    <Stack gap={2} data-testid="line-gateway" data-kind={line.gateway.kind} data-paused={pause?.code ?? ''}>
      <Text size="sm">{gatewayTitle(line.gateway.kind, language)}</Text>
      {pause ? (
        <Tooltip label={pause.text || t(`gateways.explain.${explanationOf(pause.code)}`)} multiline w={280}>
          <Group gap={4} wrap="nowrap">
            <Badge color="orange" variant="light" size="sm" data-testid="line-gateway-paused">
              {t('gateways.paused', { code: digits(pause.code, language) })}
            </Badge>
            <Text size="xs" c="orange.8">
              {t(`gateways.short.${explanationOf(pause.code)}`)}
            </Text>
          </Group>
        </Tooltip>
      ) : null}
    </Stack>
  );
}
