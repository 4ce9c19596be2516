// The run's header: the campaign's name and state, its line, the column conditions its audience
// met, when it was due, started and ended (in the user's calendar), when the last message is
// expected while it runs, the live progress, its controls, its text and its other runs.
import { Anchor, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconList } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isFinal, statusOf, timeOf, type CampaignDetail } from '../../../stores/campaigns';
import type { ExecutionReport } from '../../../../../shared/campaigns';
import { digits, formatDateTime, phoneText } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';
import { navigate } from '../../useRoute';
import { CampaignStatusBadge } from '../list/CampaignStatusBadge';
import { SentProgress } from '../list/SentProgress';
import { ReportControls } from './ReportControls';
import { DirectedText } from '../../DirectedText';
import { MessageTextBox } from '../../MessageTextBox';
import { filterWords } from '../filter/words';

export function ReportHeader({ report, campaign }: { report: ExecutionReport; campaign: CampaignDetail | null }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const status = statusOf(report);
  const at = (text: string | null) => {
    const ms = timeOf(text);
    return ms === null ? null : formatDateTime(ms, language);
  };
  const others = campaign?.executions.filter((e) => e.execution_id !== report.execution_id) ?? [];
  const conditions = filterWords(campaign?.filter, language, t);
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Stack gap={4}>
            <Group gap="sm">
              <Title order={2} data-testid="report-name">
                <DirectedText text={campaign?.name ?? ''} />
              </Title>
              <CampaignStatusBadge status={status} testId="report-status" />
              <Text size="sm" c="dimmed">
                {t('report.execution', { id: digits(report.execution_id, language) })}
              </Text>
            </Group>
            {campaign ? (
              <Text size="sm" c="dimmed">
                {t('report.line', { line: phoneText(campaign.sender, language) })}
              </Text>
            ) : null}
            {conditions ? (
              <Text size="sm" c="dimmed" data-testid="report-filter">
                {t('campaignEditor.filter.applied', { words: conditions })}
              </Text>
            ) : null}
          </Stack>
          <Group gap="xs">
            <ReportControls report={report} />
            <Anchor
              size="sm"
              href={`#/messages/execution/${report.execution_id}`}
              onClick={(event) => {
                event.preventDefault();
                navigate(`messages/execution/${report.execution_id}`);
              }}
              data-testid="report-open-messages"
            >
              <Group gap={4}>
                <IconList size={14} />
                {t('report.openMessages')}
              </Group>
            </Anchor>
          </Group>
        </Group>
        <Group gap="xl">
          <Time label={t('report.sendTime')} value={at(report.send_datetime)} testId="report-send-time" />
          <Time label={t('report.started')} value={at(report.started_at)} testId="report-started" />
          <Time label={t('report.finished')} value={at(report.finished_at)} testId="report-finished" />
          {!isFinal(report) ? (
            <Time
              label={t('report.lastMessage')}
              value={at(report.estimated_last_message_at)}
              testId="report-last-message"
            />
          ) : null}
        </Group>
        <SentProgress
          run={report}
          running={status === 'running'}
          label="report.progress"
          size="lg"
          testId="report-progress"
        />
        {report.execution_status === 'FAILED' && report.error ? (
          <Text size="sm" c="red.8" data-testid="report-error">
            {t('report.failedBecause', { error: report.error })}
          </Text>
        ) : null}
        {campaign ? <MessageTextBox text={campaign.template_body} data-testid="report-text" /> : null}
        {others.length > 0 ? (
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {t('report.otherRuns')}
            </Text>
            {others.map((other) => (
              <Badge
                key={other.execution_id}
                component="a"
                href={`#/campaigns/execution/${other.execution_id}`}
                variant="outline"
                style={{ cursor: 'pointer', textTransform: 'none' }}
                data-testid={`report-other-run-${other.execution_id}`}
              >
                {t('report.execution', { id: digits(other.execution_id, language) })} ·{' '}
                {t(`campaigns.status.${statusOf(other)}`)}
              </Badge>
            ))}
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}

function Time({ label, value, testId }: { label: string; value: string | null; testId: string }): ReactNode {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" data-testid={testId}>
        {value ?? '—'}
      </Text>
    </Stack>
  );
}
