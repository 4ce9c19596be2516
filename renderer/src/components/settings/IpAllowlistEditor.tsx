// The current account's IP allow-list (version 1 of the API answers 416 to any other caller): its
// entries with a remove button each, a field for an address or CIDR range, and "add this computer"
// for the loopback addresses a program beside Chapar calls from. The core checks and canonicalizes
// the entries; a refused one is named under the field.
import { ActionIcon, Badge, Button, Group, Paper, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDeviceDesktop, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../stores/context';
import { THIS_COMPUTER } from '../../stores/allowlist';
import type { Account } from '../../api';

export function IpAllowlistEditor({ account }: { account: Account | undefined }) {
  const { t } = useTranslation();
  const { allowlist } = useStores();
  const { add, remove, busy } = useStore(allowlist);
  const [entry, setEntry] = useState('');
  const [refused, setRefused] = useState<string | null>(null);
  if (!account)
    return (
      <Paper withBorder p="md" data-testid="allowlist">
        <Text c="dimmed">{t('allowlist.noAccount')}</Text>
      </Paper>
    );
  const list = account.ip_allowlist;
  const hasThisComputer = THIS_COMPUTER.every((ip) => list.includes(ip));
  const saved = (why: string | null) => {
    setRefused(why);
    if (why === null) notifications.show({ color: 'teal', message: t('allowlist.saved') });
    return why === null;
  };
  return (
    <Paper withBorder p="md" data-testid="allowlist">
      <Stack gap="sm">
        <div>
          <Text fw={600}>{t('allowlist.title')}</Text>
          <Text size="sm" c="dimmed">
            {t('allowlist.account', { name: account.name })}
          </Text>
        </div>
        <Text size="sm" data-testid="allowlist-hint">
          {t('allowlist.hint')}
        </Text>
        {list.length === 0 ? (
          <Text size="sm" c="orange" data-testid="allowlist-empty">
            {t('allowlist.empty')}
          </Text>
        ) : (
          <Group gap="xs" data-testid="allowlist-entries">
            {list.map((ip) => (
              <Badge
                key={ip}
                size="lg"
                variant="light"
                tt="none"
                data-testid="allowlist-entry"
                data-entry={ip}
                rightSection={
                  <ActionIcon
                    size="xs"
                    variant="transparent"
                    color="gray"
                    disabled={busy}
                    aria-label={t('allowlist.remove', { entry: ip })}
                    onClick={async () => saved(await remove(account, ip))}
                    data-testid="allowlist-remove"
                  >
                    <IconX size={12} />
                  </ActionIcon>
                }
              >
                <span className="ltr-value">{ip}</span>
              </Badge>
            ))}
          </Group>
        )}
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            if (entry.trim() && saved(await add(account, [entry]))) setEntry('');
          }}
        >
          <Group align="start">
            <TextInput
              label={t('allowlist.entry')}
              placeholder={t('allowlist.placeholder')}
              value={entry}
              onChange={(event) => {
                setEntry(event.currentTarget.value);
                setRefused(null);
              }}
              error={refused}
              dir="ltr"
              w={320}
              data-testid="allowlist-input"
              errorProps={{ 'data-testid': 'allowlist-error' }}
            />
            <Button type="submit" mt={25} disabled={!entry.trim()} loading={busy} data-testid="allowlist-add">
              {t('allowlist.add')}
            </Button>
          </Group>
        </form>
        <Group gap="xs">
          {hasThisComputer ? (
            <Text size="sm" c="teal" data-testid="allowlist-this-computer-done">
              {t('allowlist.thisComputerAdded')}
            </Text>
          ) : (
            <Tooltip label={t('allowlist.thisComputerHint')} multiline w={280}>
              <Button
                variant="light"
                leftSection={<IconDeviceDesktop size={16} />}
                disabled={busy}
                onClick={async () => saved(await add(account, [...THIS_COMPUTER]))}
                data-testid="allowlist-this-computer"
              >
                {t('allowlist.addThisComputer')}
              </Button>
            </Tooltip>
          )}
          <Text size="xs" c="dimmed">
            {t('allowlist.thisComputerHint')}
          </Text>
        </Group>
      </Stack>
    </Paper>
  );
}
