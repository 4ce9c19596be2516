// Dashboard: today's and this week's sends, delivery rate, cost, credit left, and the statuses
// over time; the campaigns running or waiting for their time; a line paused at its provider.
// Figures follow the pushes (stores/dashboard.ts), never a timer. Empty, it leads to the next
// step: an account, a line to send from, a first message.
import {
  Anchor,
  Button,
  Group,
  Loader,
  Paper,
  Progress,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconChartBar, IconPlus, IconSend, IconSpeakerphone, IconUserPlus } from '@tabler/icons-react';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../stores/context';
import { digits, formatDateTime, formatDay, formatNumber, formatPercent } from '../lib/format';
import { CHART_SERIES } from '../lib/status';
import { useLanguage } from '../i18n/useLanguage';
import { Money } from '../components/Money';
import { EmptyState } from '../components/EmptyState';
import { StackedBarChart } from '../components/StackedBarChart';
import { navigate } from '../components/useRoute';
import { ExecutionStatusBadge } from '../components/messages/SendParts';
import { nextStep, type LiveCampaign, type NextStep } from '../stores/dashboard';
import { PausedLinesCard } from '../components/gateways/PausedLines';

type Span = 'week' | 'today';

export function DashboardPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { dashboard, session } = useStores();
  const stats = useStore(dashboard, (s) => s.stats);
  const lines = useStore(dashboard, (s) => s.lines);
  const noAccount = useStore(session, (s) => s.ready && s.accounts.length === 0);
  const [span, setSpan] = useState<Span>('week');
  // Read again when shown: a line may have been added in Settings meanwhile.
  useEffect(() => void dashboard.getState().loadLines(), [dashboard]);
  if (noAccount) {
    return (
      <Stack data-testid="page-dashboard">
        <Title order={2}>{t('dashboard.title')}</Title>
        <Paper withBorder p="md">
          <EmptyState
            testId="dashboard-no-account"
            icon={<IconUserPlus size={28} />}
            title={t('dashboard.noAccount')}
            hint={t('dashboard.noAccountHint')}
            action={
              <StepButton to="settings/accounts" testId="dashboard-create-account" icon={<IconUserPlus size={16} />}>
                {t('dashboard.createAccount')}
              </StepButton>
            }
          />
        </Paper>
      </Stack>
    );
  }
  if (!stats) {
    return (
      <Stack data-testid="page-dashboard">
        <Title order={2}>{t('dashboard.title')}</Title>
        <Text c="dimmed">{t('common.loading')}</Text>
      </Stack>
    );
  }
  const buckets = span === 'week' ? stats.daily : stats.hourly;
  // One bar segment per series of the lifecycle's statuses (lib/status.ts), in display order.
  const data = buckets.map((b) => ({
    label:
      span === 'week'
        ? formatDay(b.start, language)
        : digits(new Date(b.start).getHours().toString().padStart(2, '0'), language),
    ...Object.fromEntries(CHART_SERIES.map(({ name }) => [name, b[name]])),
  }));
  const series = CHART_SERIES.map(({ name, color }) => ({ name, label: t(`dashboard.series.${name}`), color }));
  const empty = stats.week.total === 0;
  const chart = (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="md">
        <Text fw={600}>{t('dashboard.chartTitle')}</Text>
        <SegmentedControl
          size="xs"
          value={span}
          onChange={(value) => setSpan(value as Span)}
          data={[
            { value: 'week', label: t('dashboard.byDay') },
            { value: 'today', label: t('dashboard.byHour') },
          ]}
          data-testid="chart-span"
        />
      </Group>
      {empty ? (
        <EmptyState
          testId="dashboard-empty"
          icon={<IconChartBar size={28} />}
          title={t('dashboard.empty')}
          hint={
            lines !== null && nextStep(lines) === 'addLine' ? t('dashboard.emptyNoLineHint') : t('dashboard.emptyHint')
          }
          action={lines === null ? undefined : <NextStepButton step={nextStep(lines)} />}
        />
      ) : (
        <StackedBarChart h={300} data={data} series={series} testId="status-chart" />
      )}
    </Paper>
  );
  return (
    <Stack data-testid="page-dashboard">
      <Title order={2}>{t('dashboard.title')}</Title>
      {/* A line that stopped delivering comes before the figures: nothing moves until it goes on. */}
      <PausedLinesCard />
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 5 }}>
        <Stat label={t('dashboard.today')} testId="stat-today" value={formatNumber(stats.today.total, language)} />
        <Stat label={t('dashboard.week')} testId="stat-week" value={formatNumber(stats.week.total, language)} />
        <Stat
          label={t('dashboard.deliveryRate')}
          testId="stat-delivery-rate"
          value={stats.delivery_rate === null ? '—' : formatPercent(stats.delivery_rate, language)}
        />
        <Stat label={t('dashboard.weekCost')} testId="stat-cost" value={<Money rials={stats.week.cost_rials} />} />
        <Stat
          label={t('dashboard.credit')}
          testId="stat-credit"
          value={stats.credit_rials === null ? '—' : <Money rials={stats.credit_rials} />}
        />
      </SimpleGrid>
      {/* Nothing sent this week: its next step comes first, where it is seen. */}
      {empty ? chart : null}
      <CampaignsCard />
      {empty ? null : chart}
    </Stack>
  );
}

/** A button that goes to another page (a link for the keyboard and a middle click too). */
function StepButton({
  to,
  testId,
  icon,
  children,
}: {
  to: string;
  testId: string;
  icon: ReactNode;
  children: ReactNode;
}) {
  return (
    <Button
      mt="xs"
      component="a"
      href={`#/${to}`}
      leftSection={icon}
      onClick={(event) => {
        event.preventDefault();
        navigate(to);
      }}
      data-testid={testId}
    >
      {children}
    </Button>
  );
}

/** Nothing sent yet: a line to send from first (Settings → Lines), then the composer. */
function NextStepButton({ step }: { step: NextStep }) {
  const { t } = useTranslation();
  return step === 'addLine' ? (
    <StepButton to="settings/lines" testId="dashboard-add-line" icon={<IconPlus size={16} />}>
      {t('dashboard.addLine')}
    </StepButton>
  ) : (
    <StepButton to="compose" testId="dashboard-compose" icon={<IconSend size={16} />}>
      {t('dashboard.compose')}
    </StepButton>
  );
}

function Stat({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  return (
    <Paper withBorder p="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl" data-testid={testId} component="div">
        {value}
      </Text>
    </Paper>
  );
}

/** The campaigns running (paused ones too) or scheduled, each with its progress and report. */
function CampaignsCard() {
  const { t } = useTranslation();
  const { dashboard } = useStores();
  const campaigns = useStore(dashboard, (s) => s.campaigns);
  // Read again when shown: a campaign scheduled meanwhile (in the editor, over HTTP) sends no push.
  useEffect(() => dashboard.getState().followCampaigns(), [dashboard]);
  const newCampaign = (
    <Button
      size="xs"
      variant="light"
      leftSection={<IconPlus size={14} />}
      component="a"
      href="#/campaigns/new"
      onClick={(event) => {
        event.preventDefault();
        navigate('campaigns/new');
      }}
      data-testid="dashboard-new-campaign"
    >
      {t('dashboard.newCampaign')}
    </Button>
  );
  return (
    <Paper withBorder p="md" data-testid="dashboard-campaigns" data-count={campaigns?.length ?? ''}>
      <Group justify="space-between" mb="sm">
        <Text fw={600}>{t('dashboard.campaigns')}</Text>
        {campaigns && campaigns.length > 0 ? newCampaign : null}
      </Group>
      {campaigns === null ? (
        <Loader size="sm" />
      ) : campaigns.length === 0 ? (
        <Stack align="center" gap={0}>
          <EmptyState
            testId="dashboard-campaigns-empty"
            icon={<IconSpeakerphone size={28} />}
            title={t('dashboard.campaignsEmpty')}
            hint={t('dashboard.campaignsEmptyHint')}
          />
          {newCampaign}
        </Stack>
      ) : (
        <Table verticalSpacing="xs" highlightOnHover>
          <Table.Tbody>
            {campaigns.map((campaign) => (
              <CampaignRow key={campaign.campaign_id} campaign={campaign} />
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

function CampaignRow({ campaign }: { campaign: LiveCampaign }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const execution = campaign.last_execution;
  const running = execution.execution_status === 'RUNNING';
  const at = Date.parse(execution.started_at ?? execution.send_datetime);
  const report = `campaigns/execution/${execution.execution_id}`;
  return (
    <Table.Tr
      data-testid={`dashboard-campaign-${campaign.campaign_id}`}
      data-status={execution.execution_status}
      data-paused={execution.paused}
      data-sent={execution.sent}
      data-audience={execution.audience}
      style={{ cursor: 'pointer' }}
      onClick={() => navigate(report)}
    >
      <Table.Td maw={260}>
        <Group gap="xs" wrap="nowrap">
          <Text fw={600} size="sm" truncate="end">
            <bdi>{campaign.name}</bdi>
          </Text>
          <ExecutionStatusBadge status={execution.execution_status} paused={execution.paused} />
        </Group>
      </Table.Td>
      <Table.Td>
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {Number.isNaN(at)
            ? '—'
            : t(running ? 'dashboard.startedAt' : 'dashboard.startsAt', { at: formatDateTime(at, language) })}
        </Text>
      </Table.Td>
      <Table.Td miw={180}>
        <Progress
          size="sm"
          value={execution.audience > 0 ? (100 * execution.sent) / execution.audience : 0}
          color={execution.paused ? 'yellow' : 'teal'}
          animated={running && !execution.paused}
        />
        <Text size="xs" c="dimmed" mt={4}>
          {t('dashboard.progress', {
            sent: formatNumber(execution.sent, language),
            audience: formatNumber(execution.audience, language),
          })}
        </Text>
      </Table.Td>
      <Table.Td ta="end">
        <Anchor
          size="sm"
          href={`#/${report}`}
          onClick={(event) => {
            event.preventDefault();
            event.stopPropagation();
            navigate(report);
          }}
          data-testid="dashboard-campaign-report"
        >
          {t('dashboard.report')}
        </Anchor>
      </Table.Td>
    </Table.Tr>
  );
}
