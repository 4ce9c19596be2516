// Language, the local HTTP API and the data folder.
import { Code, Group, Paper, SegmentedControl, Stack, Switch, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import type { Language } from '../../lib/format';

export function GeneralSettings() {
  const { t } = useTranslation();
  const { session } = useStores();
  const { language, settings, setLanguage, setHttpApi } = useStore(
    session,
    useShallow((s) => ({ language: s.language, settings: s.settings, setLanguage: s.setLanguage, setHttpApi: s.setHttpApi })),
  );
  // Where it cannot be switched (web mode) it is on exactly when it answers somewhere.
  const httpApiOn = settings ? (settings.http_api.can_toggle ? settings.http_api.enabled : settings.http_api.url !== null) : false;
  return (
    <Stack maw={640}>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Text fw={600}>{t('settings.general.language')}</Text>
          <SegmentedControl
            value={language}
            onChange={(value) => void setLanguage(value as Language)}
            data={[
              { value: 'fa', label: 'فارسی' },
              { value: 'en', label: 'English' },
            ]}
            data-testid="settings-language"
            w={240}
          />
          <Text size="xs" c="dimmed">
            {t('settings.general.languageHint')}
          </Text>
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Text fw={600}>{t('settings.general.httpApi')}</Text>
          {settings ? (
            <>
              <Switch
                checked={httpApiOn}
                disabled={!settings.http_api.can_toggle}
                onChange={(event) => void setHttpApi(event.currentTarget.checked)}
                label={httpApiOn ? t('settings.general.httpApiOn') : t('settings.general.httpApiOff')}
                data-testid="settings-http-api"
              />
              <Group gap="xs">
                <Text size="sm">{t('settings.general.address')}</Text>
                <Code data-testid="settings-http-url">{settings.http_api.url ?? `${settings.http_api.host}:${settings.http_api.port}`}</Code>
              </Group>
              {!settings.http_api.can_toggle ? (
                <Text size="xs" c="dimmed">
                  {t('settings.general.httpApiWeb')}
                </Text>
              ) : null}
            </>
          ) : (
            <Text c="dimmed">{t('common.loading')}</Text>
          )}
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Text fw={600}>{t('settings.general.dataDir')}</Text>
          <Code block data-testid="settings-data-dir">
            {settings?.data_dir ?? '…'}
          </Code>
          {settings?.next_data_dir ? (
            <Text size="xs" c="orange">
              {t('settings.general.nextDataDir', { dir: settings.next_data_dir })}
            </Text>
          ) : null}
          <Text size="xs" c="dimmed">
            {t('settings.general.dataDirHint')}
          </Text>
        </Stack>
      </Paper>
    </Stack>
  );
}
