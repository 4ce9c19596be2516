// Each line's queue at its provider (lines not on the simulator): how many of its messages stand in
// each hand-over state, what the provider charged so far, a pause and why, and the messages the
// provider could not confirm, which wait for the user: send them again (a confirmation saying it may
// reach the recipients twice and cost twice, with the count) or mark them as failed (a
// confirmation: cancelled, refunded). Nothing that may cost money happens on one click.
import { Alert, Badge, Button, Group, Modal, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconRepeat, IconX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { gatewaysSelectors, waitingForUser, type Handover, type LineQueue } from '../../stores/gateways';
import type { HandoverState } from '../../../../shared/gateways';
import { digits, formatDateTime, formatNumber, phoneText } from '../../lib/format';
import { gatewayName } from '../../lib/gateways';
import { useLanguage } from '../../i18n/useLanguage';
import { Money } from '../Money';
import { PausedLineAlert } from '../gateways/PausedLines';
import { PhoneNumber } from '../PhoneNumber';

/**
 * The tiles in the order a message goes: on its way (waiting, handing over, accepted, final), then
 * what stopped it or needs the user (unknown, review, rejected, status unknown).
 */
const TILE_ORDER: readonly HandoverState[] = [
  'waiting',
  'handing_over',
  'accepted',
  'final',
  'unknown',
  'review',
  'rejected',
  'expired',
];

/** The tiles' colours once their count is not zero: what needs the user stands out. */
const STATE_COLORS: Record<HandoverState, string | undefined> = {
  waiting: undefined,
  handing_over: 'blue',
  accepted: 'blue',
  unknown: 'yellow.8',
  review: 'orange',
  rejected: 'red',
  expired: 'gray',
  final: 'teal',
};

export function GatewayQueues() {
  const { gateways } = useStores();
  const queues = useStore(gateways, useShallow(gatewaysSelectors.upstream));
  // Opened: read now, not at the next round of the timer.
  useEffect(() => void gateways.getState().refresh(), [gateways]);
  if (queues.length === 0) return null;
  return (
    <Stack data-testid="gateway-queues">
      {queues.map((queue) => (
        <GatewayQueue key={queue.line_id} queue={queue} />
      ))}
    </Stack>
  );
}

function GatewayQueue({ queue }: { queue: LineQueue }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { gateways } = useStores();
  const provider = gatewayName(queue.kind, language);
  const { review, unknown } = waitingForUser(queue);
  const waiting = review + unknown;
  const rows = useStore(gateways, (s) => s.handovers[queue.number]);
  // The list follows its counts: read again whenever they move.
  useEffect(() => {
    if (waiting > 0) void gateways.getState().loadHandovers(queue.number);
  }, [gateways, queue.number, review, unknown, waiting]);
  return (
    <Paper
      withBorder
      p="md"
      data-testid="gateway-queue"
      data-number={queue.number}
      data-paused={queue.paused ? queue.paused.code : ''}
    >
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={4}>{t('gateways.queue.title', { number: phoneText(queue.number, language), provider })}</Title>
          <Badge color={queue.paused ? 'orange' : 'teal'} variant="light" data-testid="gateway-queue-state">
            {queue.paused ? t('gateways.queue.pausedBadge') : t('gateways.queue.running')}
          </Badge>
        </Group>
        {queue.paused ? <PausedLineAlert queue={queue} settings={false} testId="gateway-queue-paused" /> : null}
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
          {TILE_ORDER.map((state) => (
            <StateTile key={state} state={state} value={queue.counts[state] ?? 0} />
          ))}
        </SimpleGrid>
        <Group gap={6}>
          <Text size="sm" c="dimmed">
            {t('gateways.queue.providerCost')}
          </Text>
          <Text size="sm" fw={600} data-testid="gateway-queue-cost" data-value={queue.provider_cost_rials}>
            <Money rials={queue.provider_cost_rials} />
          </Text>
        </Group>
        {waiting > 0 ? <WaitingForUser queue={queue} rows={rows ?? []} /> : null}
      </Stack>
    </Paper>
  );
}

function StateTile({ state, value }: { state: HandoverState; value: number }) {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <Paper withBorder p="xs" radius="sm">
      <Text size="xs" fw={600}>
        {t(`gateways.states.${state}`)}
      </Text>
      <Text
        fw={700}
        c={value > 0 ? STATE_COLORS[state] : undefined}
        data-testid={`gateway-count-${state}`}
        data-value={value}
      >
        {formatNumber(value, language)}
      </Text>
      <Text size="xs" c="dimmed" lh={1.3}>
        {t(`gateways.stateHints.${state}`)}
      </Text>
    </Paper>
  );
}

type Asked = 'retry' | 'markFailed';

/** The messages the provider could not confirm, and the user's two ways out. */
function WaitingForUser({ queue, rows }: { queue: LineQueue; rows: Handover[] }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { gateways, settings } = useStores();
  const busy = useStore(gateways, (s) => s.busy[queue.number]);
  // What the confirmation asks stays while it closes; `opened` says whether it is shown.
  const [asked, setAsked] = useState<Asked>('retry');
  const [opened, setOpened] = useState(false);
  const provider = gatewayName(queue.kind, language);
  const { review, unknown } = waitingForUser(queue);
  const failable = review + unknown;
  const n = (value: number) => formatNumber(value, language);
  const ask = (action: Asked) => {
    setAsked(action);
    setOpened(true);
  };

  const act = async () => {
    const action = asked;
    setOpened(false);
    const count = action === 'retry' ? review : failable;
    // All of them listed: exactly those the confirmation counted (one arriving meanwhile waits
    // for its own decision); else all of them as the core has them.
    const listed = rows.length >= failable;
    const ids = listed
      ? rows.filter((row) => action === 'markFailed' || row.state === 'review').map((row) => row.message_id)
      : undefined;
    const refused =
      action === 'retry'
        ? await gateways.getState().retry(queue.number, ids)
        : await gateways.getState().markFailed(queue.number, ids);
    if (refused !== null) {
      notifications.show({ color: 'red', title: t('common.error'), message: refused });
      return;
    }
    notifications.show({
      color: 'teal',
      message:
        action === 'retry'
          ? t('gateways.queue.retried', { count, n: n(count), provider })
          : t('gateways.queue.markedFailed', { count, n: n(count) }),
    });
    // Refunds change the credit and its ledger.
    if (action === 'markFailed') void settings.getState().refreshCredit();
  };

  return (
    <Stack gap="xs" data-testid="gateway-review">
      <Title order={5}>{t('gateways.queue.reviewTitle')}</Title>
      <Text size="sm" c="dimmed">
        {t('gateways.queue.reviewHint', { provider })}
      </Text>
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing={4} data-testid="gateway-review-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('gateways.queue.receptor')}</Table.Th>
              <Table.Th>{t('gateways.queue.state')}</Table.Th>
              <Table.Th>{t('gateways.queue.answer')}</Table.Th>
              <Table.Th>{t('gateways.queue.attempts')}</Table.Th>
              <Table.Th>{t('gateways.queue.since')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.message_id} data-testid="gateway-review-row" data-state={row.state}>
                <Table.Td>
                  <PhoneNumber number={row.receptor} />
                </Table.Td>
                <Table.Td>
                  <Badge size="sm" variant="light" color={row.state === 'review' ? 'orange' : 'yellow'}>
                    {t(`gateways.states.${row.state}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {row.code !== null ? (
                    <Text size="sm">
                      <b>{digits(row.code, language)}</b> {row.detail ? <bdi dir="auto">{row.detail}</bdi> : null}
                    </Text>
                  ) : (
                    // No code: the provider said nothing; the words are the carrier's own (English), kept for support.
                    <Stack gap={0}>
                      <Text size="sm">{t('gateways.queue.noAnswer')}</Text>
                      {row.detail ? (
                        <Text size="xs" c="dimmed" dir="ltr" className="ltr-value">
                          {row.detail}
                        </Text>
                      ) : null}
                    </Stack>
                  )}
                </Table.Td>
                <Table.Td>{n(row.attempts)}</Table.Td>
                <Table.Td>{formatDateTime(row.updated_at, language)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows.length < failable ? (
        <Text size="xs" c="dimmed">
          {t('gateways.queue.shownOf', { shown: n(rows.length), n: n(failable) })}
        </Text>
      ) : null}
      <Group gap="xs">
        {review > 0 ? (
          <Button
            size="xs"
            color="orange"
            variant="light"
            leftSection={<IconRepeat size={14} />}
            loading={busy === 'retry'}
            disabled={busy !== undefined}
            onClick={() => ask('retry')}
            data-testid="gateway-retry"
          >
            {t('gateways.queue.retry', { n: n(review) })}
          </Button>
        ) : null}
        <Button
          size="xs"
          color="red"
          variant="light"
          leftSection={<IconX size={14} />}
          loading={busy === 'markFailed'}
          disabled={busy !== undefined}
          onClick={() => ask('markFailed')}
          data-testid="gateway-mark-failed"
        >
          {t('gateways.queue.markFailed', { n: n(failable) })}
        </Button>
      </Group>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={
          asked === 'retry'
            ? t('gateways.queue.retryTitle', { count: review, n: n(review) })
            : t('gateways.queue.markFailedTitle', { count: failable, n: n(failable) })
        }
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack data-testid="gateway-confirm" data-action={asked}>
          <Alert color={asked === 'retry' ? 'orange' : 'red'} icon={<IconAlertTriangle size={18} />}>
            {asked === 'retry'
              ? t('gateways.queue.retryBody', { count: review, n: n(review), provider })
              : t('gateways.queue.markFailedBody', { count: failable, n: n(failable), provider })}
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpened(false)} data-testid="gateway-confirm-cancel">
              {t('common.cancel')}
            </Button>
            <Button
              color={asked === 'retry' ? 'orange' : 'red'}
              onClick={() => void act()}
              data-testid="gateway-confirm-ok"
            >
              {asked === 'retry'
                ? t('gateways.queue.retryConfirm', { n: n(review) })
                : t('gateways.queue.markFailedConfirm', { n: n(failable) })}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
