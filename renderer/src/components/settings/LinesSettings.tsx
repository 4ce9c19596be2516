// Sender lines of the current account and their permissions. Removing a line with history
// deactivates it (the service keeps its messages).
import { Badge, Button, Checkbox, Group, Paper, Select, Stack, Table, TextInput } from '@mantine/core';
import { IconAntenna } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { LINE_PERMISSIONS, PROVIDERS, type LinePermission, type Provider } from '../../../../shared/status';
import type { Line } from '../../api';
import { EmptyState } from '../EmptyState';

function permissionsOf(line: Line): LinePermission[] {
  return LINE_PERMISSIONS.filter((p) => line[p]);
}

export function LinesSettings() {
  const { t } = useTranslation();
  const { settings, compose } = useStores();
  const { lines, saveLine, removeLine } = useStore(
    settings,
    useShallow((s) => ({ lines: s.lines, saveLine: s.saveLine, removeLine: s.removeLine })),
  );
  // The composer lists lines too: refresh it after a change here.
  const reloadCompose = () => void compose.getState().load(compose.getState().accountId);
  const [number, setNumber] = useState('');
  const [provider, setProvider] = useState<Provider>('sms');

  const toggle = async (line: Line, permission: LinePermission, on: boolean) => {
    const permissions = on ? [...permissionsOf(line), permission] : permissionsOf(line).filter((p) => p !== permission);
    if (await saveLine({ number: line.number, provider: line.provider, permissions, active: line.active }))
      reloadCompose();
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
                <Table.Th>{t('settings.lines.can_send_api_campaign')}</Table.Th>
                <Table.Th>{t('settings.lines.can_send_panel_campaign')}</Table.Th>
                <Table.Th>{t('settings.lines.state')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {lines.map((line) => (
                <Table.Tr key={line.id} data-testid="line-row" data-number={line.number}>
                  <Table.Td className="ltr-value">{line.number}</Table.Td>
                  <Table.Td>{t(`provider.${line.provider}`)}</Table.Td>
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
                    {line.active ? (
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        onClick={async () => (await removeLine(line.number), reloadCompose())}
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
                      >
                        {t('settings.lines.activate')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      <Paper withBorder p="md" maw={620}>
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            const ok = await saveLine({
              number: number.trim(),
              provider,
              permissions: ['can_send_api_campaign', 'can_send_panel_campaign'],
            });
            if (ok) {
              setNumber('');
              reloadCompose();
            }
          }}
        >
          <Group align="end">
            <TextInput
              label={t('settings.lines.newNumber')}
              value={number}
              onChange={(event) => setNumber(event.currentTarget.value)}
              dir="ltr"
              data-testid="line-number"
              style={{ flex: 1 }}
            />
            <Select
              label={t('settings.lines.provider')}
              data={PROVIDERS.map((p) => ({ value: p, label: t(`provider.${p}`) }))}
              value={provider}
              allowDeselect={false}
              onChange={(value) => value && setProvider(value as Provider)}
              w={140}
            />
            <Button type="submit" disabled={!number.trim()} data-testid="line-add">
              {t('settings.lines.add')}
            </Button>
          </Group>
        </form>
      </Paper>
    </Stack>
  );
}
