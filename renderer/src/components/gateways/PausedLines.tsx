// A line that stopped handing over its messages, said where it is seen: a banner above every page
// (but the Dashboard, whose card says it, and Settings → Lines, whose queue says it), the
// Dashboard's card, and the line's queue. Each says which line, what the provider answered (its
// code, what that means and what to do, and its own words) and offers Resume and the settings.
// Resuming sends nothing new: the messages waiting were confirmed when they were sent.
import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlayerPause, IconPlayerPlay, IconSettings } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { gatewaysSelectors, type LineQueue } from '../../stores/gateways';
import { digits, phoneText } from '../../lib/format';
import { explanationOf, gatewayName } from '../../lib/gateways';
import { useLanguage } from '../../i18n/useLanguage';
import { navigate, useRoute, useSubPath } from '../useRoute';

/** Resumes a paused line, saying how it went. */
function useResume(): (queue: LineQueue) => Promise<void> {
  const { t } = useTranslation();
  const language = useLanguage();
  const { gateways } = useStores();
  return async (queue) => {
    const refused = await gateways.getState().resume(queue.number);
    if (refused === null)
      notifications.show({
        color: 'teal',
        message: t('gateways.queue.resumed', { number: phoneText(queue.number, language) }),
      });
    else notifications.show({ color: 'red', title: t('common.error'), message: refused });
  };
}

/** One paused line: its provider's answer, what to do, and the actions. */
export function PausedLineAlert({
  queue,
  settings = true,
  testId = 'paused-line',
}: {
  queue: LineQueue;
  /** Offer "Open settings" (not where the settings are already open). */
  settings?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const busy = useStore(useStores().gateways, (s) => s.busy[queue.number]);
  const resume = useResume();
  const pause = queue.paused;
  if (!pause) return null;
  const provider = gatewayName(queue.kind, language);
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconPlayerPause size={20} />}
      title={t('gateways.pause.title', {
        number: phoneText(queue.number, language),
        provider,
        code: digits(pause.code, language),
      })}
      data-testid={testId}
      data-number={queue.number}
      data-code={pause.code}
    >
      <Stack gap={6}>
        <Text size="sm">
          {t(`gateways.explain.${explanationOf(pause.code)}`)} {t('gateways.pause.waiting')}
        </Text>
        {pause.text ? (
          <Text size="sm" c="dimmed">
            {t('gateways.dialog.providerSaid')}{' '}
            <bdi dir="auto" data-testid={`${testId}-text`}>
              {pause.text}
            </bdi>
          </Text>
        ) : null}
        <Group gap="xs">
          <Button
            size="xs"
            color="orange"
            leftSection={<IconPlayerPlay size={14} />}
            loading={busy === 'resume'}
            disabled={busy !== undefined}
            onClick={() => void resume(queue)}
            data-testid={`${testId}-resume`}
          >
            {t('gateways.pause.resume')}
          </Button>
          {settings ? (
            <Button
              size="xs"
              variant="default"
              leftSection={<IconSettings size={14} />}
              component="a"
              href="#/settings/lines"
              onClick={(event) => {
                event.preventDefault();
                navigate('settings/lines');
              }}
              data-testid={`${testId}-settings`}
            >
              {t('gateways.pause.openSettings')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Alert>
  );
}

/** Above every page: one alert per paused line of the account. */
export function PausedBanner() {
  const [page] = useRoute();
  const sub = useSubPath();
  const paused = useStore(useStores().gateways, useShallow(gatewaysSelectors.paused));
  // The Dashboard's card and the line's own queue say it there, with more room.
  if (paused.length === 0 || page === 'dashboard' || (page === 'settings' && sub.startsWith('lines'))) return null;
  return (
    <Stack gap="xs" mb="md" data-testid="paused-banner" role="status">
      {paused.map((queue) => (
        <PausedLineAlert key={queue.line_id} queue={queue} testId="paused-banner-line" />
      ))}
    </Stack>
  );
}

/** The Dashboard's card of the paused lines; nothing when none is. */
export function PausedLinesCard() {
  const { t } = useTranslation();
  const paused = useStore(useStores().gateways, useShallow(gatewaysSelectors.paused));
  if (paused.length === 0) return null;
  return (
    <Paper withBorder p="md" data-testid="dashboard-paused" data-count={paused.length}>
      <Stack gap="sm">
        <Text fw={600}>{t('gateways.pause.dashboardTitle')}</Text>
        {paused.map((queue) => (
          <PausedLineAlert key={queue.line_id} queue={queue} testId="dashboard-paused-line" />
        ))}
      </Stack>
    </Paper>
  );
}
