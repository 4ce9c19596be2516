// Language and the unit of amounts (this person's own: kept in their profile or browser; the
// language may follow the system's), the local HTTP API (on/off and address where the host lets it
// change) and the data folder (the desktop app can move to another one from its next start).
import { Badge, Button, Code, Group, Paper, SegmentedControl, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import type { AppSettings } from '../../api';
import { isLanguage } from '../../lib/format';
import { isMoneyUnit, MONEY_UNITS } from '../../lib/money';
import { NumberField } from '../NumberField';

/** The language select's value for "follow the system's language" (no choice kept). */
const SYSTEM = 'system';

export function GeneralSettings() {
  const { t } = useTranslation();
  const { session, preferences } = useStores();
  const { settings, setLanguage } = useStore(
    session,
    useShallow((s) => ({ settings: s.settings, setLanguage: s.setLanguage })),
  );
  const chosen = useStore(preferences, (p) => p.language);
  const moneyUnit = useStore(preferences, (p) => p.moneyUnit);
  return (
    <Stack maw={640}>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Text fw={600}>{t('settings.general.language')}</Text>
          <SegmentedControl
            value={chosen ?? SYSTEM}
            onChange={(value) => setLanguage(isLanguage(value) ? value : null)}
            data={[
              { value: SYSTEM, label: t('settings.general.languageSystem') },
              { value: 'fa', label: 'فارسی' },
              { value: 'en', label: 'English' },
            ]}
            data-testid="settings-language"
            w={360}
          />
          <Text size="xs" c="dimmed">
            {t('settings.general.languageHint')}
          </Text>
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Text fw={600}>{t('settings.general.moneyUnit')}</Text>
          <SegmentedControl
            value={moneyUnit}
            onChange={(value) => isMoneyUnit(value) && preferences.getState().set({ moneyUnit: value })}
            data={MONEY_UNITS.map((unit) => ({ value: unit, label: t(`common.${unit}`) }))}
            data-testid="settings-money-unit"
            data-value={moneyUnit}
            w={240}
          />
          <Text size="xs" c="dimmed">
            {t('settings.general.moneyUnitHint')}
          </Text>
        </Stack>
      </Paper>
      {settings ? (
        <>
          <HttpApiSettings key={JSON.stringify(settings.http_api)} settings={settings} />
          <DataDirSettings key={settings.next_data_dir ?? settings.data_dir} settings={settings} />
        </>
      ) : (
        <Text c="dimmed">{t('common.loading')}</Text>
      )}
    </Stack>
  );
}

function HttpApiSettings({ settings }: { settings: AppSettings }) {
  const { t } = useTranslation();
  const setHttpApi = useStore(useStores().session, (s) => s.setHttpApi);
  const api = settings.http_api;
  const [host, setHost] = useState(api.host);
  const [port, setPort] = useState<number | ''>(api.port);
  // Where it cannot be switched (web mode) it is on exactly when it answers somewhere.
  const on = api.can_toggle ? api.enabled : api.url !== null;
  const changed = host !== api.host || port !== api.port;
  const portValid = port !== '' && port >= 0 && port <= 65535;
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Text fw={600}>{t('settings.general.httpApi')}</Text>
        {api.can_toggle ? (
          <Switch
            checked={on}
            onChange={(event) => void setHttpApi({ enabled: event.currentTarget.checked })}
            label={on ? t('settings.general.httpApiOn') : t('settings.general.httpApiOff')}
            data-testid="settings-http-api"
          />
        ) : (
          // Not switchable here: a state, not a control that looks broken when disabled.
          <Group gap="xs" data-testid="settings-http-api" data-on={on}>
            <Badge color={on ? 'teal' : 'gray'} variant="light">
              {on ? t('common.active') : t('common.inactive')}
            </Badge>
            <Text size="sm">{on ? t('settings.general.httpApiOn') : t('settings.general.httpApiOff')}</Text>
          </Group>
        )}
        <Group gap="xs">
          <Text size="sm">{t('settings.general.address')}</Text>
          <Code data-testid="settings-http-url">{api.url ?? `${api.host}:${api.port}`}</Code>
        </Group>
        {api.can_toggle ? (
          <Group align="end">
            <TextInput
              label={t('settings.general.host')}
              value={host}
              onChange={(e) => setHost(e.currentTarget.value)}
              dir="ltr"
              w={200}
            />
            <NumberField
              label={t('settings.general.port')}
              value={port}
              onChange={setPort}
              min={0}
              max={65535}
              thousandSeparator={false}
              w={120}
              data-testid="settings-http-port"
            />
            <Button
              variant="light"
              disabled={!changed || !host.trim() || !portValid}
              onClick={async () => {
                if (portValid && (await setHttpApi({ host: host.trim(), port })))
                  notifications.show({ color: 'teal', message: t('common.saved') });
              }}
            >
              {t('common.save')}
            </Button>
          </Group>
        ) : (
          <Text size="xs" c="dimmed">
            {t('settings.general.httpApiWeb')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function DataDirSettings({ settings }: { settings: AppSettings }) {
  const { t } = useTranslation();
  const stores = useStores();
  const setDataDir = useStore(stores.session, (s) => s.setDataDir);
  const chooseFile = useStore(stores.settings, (s) => s.chooseFile);
  const [dir, setDir] = useState(settings.next_data_dir ?? settings.data_dir);
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Text fw={600}>{t('settings.general.dataDir')}</Text>
        <Code block data-testid="settings-data-dir">
          {settings.data_dir}
        </Code>
        {settings.next_data_dir ? (
          <Text size="xs" c="orange">
            {t('settings.general.nextDataDir', { dir: settings.next_data_dir })}
          </Text>
        ) : null}
        <Text size="xs" c="dimmed">
          {t('settings.general.dataDirHint')}
        </Text>
        {settings.mode === 'desktop' ? (
          <Group align="end">
            <TextInput
              label={t('settings.general.moveDataDir')}
              value={dir}
              onChange={(e) => setDir(e.currentTarget.value)}
              dir="ltr"
              style={{ flex: 1 }}
            />
            <Button
              variant="default"
              onClick={async () => {
                const chosen = await chooseFile('data-folder', dir || undefined);
                if (chosen) setDir(chosen);
              }}
            >
              {t('settings.general.chooseFolder')}
            </Button>
            <Button
              variant="light"
              disabled={!dir.trim() || dir === settings.data_dir}
              onClick={() => void setDataDir(dir.trim())}
            >
              {t('settings.general.useNextStart')}
            </Button>
          </Group>
        ) : (
          <Text size="xs" c="dimmed">
            {t('settings.general.dataDirWeb')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
