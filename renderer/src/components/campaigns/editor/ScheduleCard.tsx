// The whole audience's cost against the credit, what still stands before scheduling, and the
// scheduling itself: the campaigns' one confirmation (CampaignConfirmation: recipients, line,
// pages, total cost, time) before anything is created, asked once; the button cannot send twice.
import { Alert, Button, Divider, Group, List, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconCalendarEvent, IconCircleCheck } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { blocksOf, campaignEditorSelectors, type Block } from '../../../stores/campaignEditor';
import { useStores } from '../../../stores/context';
import { formatNumber } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';
import { Money, useMoney } from '../../Money';
import { navigate } from '../../useRoute';
import { useEditor } from './useEditor';
import { useFaultText } from './useFaultText';
import { wallTimeParts } from './when';
import { wallTimeOf } from './zonedTime';
import { CampaignConfirmation } from '../CampaignConfirmation';
import { zoneName } from '../../../lib/names';
import { filterWords } from '../filter/words';
import { modeOf, seriesSentence } from './series';
import { isTimeZone, runtimeTimeZone } from '../../../../../shared/time-zone';

export function ScheduleCard() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { session } = useStores();
  const describe = useFaultText();
  const money = useMoney();
  const { quote, fields, creating, createError, quoteError, create } = useEditor(
    useShallow((s) => ({
      quote: s.quote,
      fields: s.fields,
      creating: s.creating,
      createError: s.createError,
      quoteError: s.quoteError,
      create: s.create,
    })),
  );
  const blocks = useMemo(() => blocksOf(quote, fields), [quote, fields]);
  const canSchedule = useEditor(campaignEditorSelectors.canSchedule);
  // A change not quoted yet: "ready" would be said of the fields as they were.
  const fresh = useEditor((s) => campaignEditorSelectors.currentQuote(s) !== null);
  const [confirming, setConfirming] = useState(false);
  const gateway = useEditor((s) => s.lines.find((line) => line.number === s.fields.sender)?.gateway.kind);

  const blockText = (block: Block): string => {
    switch (block.kind) {
      case 'problem':
        return describe({
          code: block.problem.code,
          detail: block.problem.detail,
          reason: block.problem.reason ?? null,
          message: block.problem.detail,
        });
      case 'noCredit':
        return t('campaignEditor.blocks.noCredit', {
          cost: money.text(block.cost),
          credit: money.text(block.credit),
        });
      case 'linkEmpty':
        return t('campaignEditor.faults.linkEmpty', { n: formatNumber(block.n, language) });
      case 'noName':
      case 'noSender':
      case 'noText':
      case 'noSegments':
      case 'noRecipients':
        return t(`campaignEditor.blocks.${block.kind}`);
    }
  };

  const schedule = async () => {
    const created = await create();
    if (!created) return;
    setConfirming(false);
    // What the campaign holds of the credit shows in the header.
    void session.getState().refreshAccounts();
    navigate(`campaigns/execution/${created.execution_id}`);
  };

  const wall = fields.send_datetime === null ? null : wallTimeOf(fields.send_datetime);
  const series = modeOf(fields) !== 'once';
  // The zone the series runs in, as the core's quote names it (the account's).
  const seriesZone =
    quote?.monthly?.time_zone ??
    (fields.time_zone && isTimeZone(fields.time_zone) ? fields.time_zone : runtimeTimeZone());
  // A repeat sends to today's audience each time; a trigger to those whose day falls in the month.
  const seriesRecipients = fields.trigger ? (quote?.monthly?.recipients ?? 0) : (quote?.audience.recipients ?? 0);
  const short = quote !== null && !quote.enough_credit;

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={4}>{t('campaignEditor.total.title')}</Title>
        {quote ? (
          <Table withRowBorders={false} verticalSpacing={4}>
            <Table.Tbody>
              <Table.Tr>
                <Table.Td>{t('campaignEditor.total.pages')}</Table.Td>
                <Table.Td ta="end" data-testid="editor-total-pages">
                  {formatNumber(quote.total_pages, language)}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Td fw={700}>{t('campaignEditor.total.cost')}</Table.Td>
                <Table.Td ta="end" fw={700} data-testid="editor-total-cost" data-rials={quote.total_cost_rials}>
                  <Money rials={quote.total_cost_rials} />
                </Table.Td>
              </Table.Tr>
              {quote.monthly ? (
                <>
                  <Table.Tr>
                    <Table.Td>
                      {t(
                        fields.trigger
                          ? 'campaignEditor.series.perOccurrenceTrigger'
                          : 'campaignEditor.series.perOccurrence',
                      )}
                    </Table.Td>
                    <Table.Td ta="end" data-testid="editor-series-recipients" data-value={seriesRecipients}>
                      {formatNumber(seriesRecipients, language)}
                    </Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Td>{t('campaignEditor.series.occurrences')}</Table.Td>
                    <Table.Td ta="end" data-testid="editor-series-occurrences">
                      {formatNumber(quote.monthly.occurrences, language)}
                    </Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Td fw={700}>{t('campaignEditor.series.monthlyCost')}</Table.Td>
                    <Table.Td
                      ta="end"
                      fw={700}
                      data-testid="editor-series-monthly"
                      data-rials={quote.monthly.cost_rials}
                    >
                      <Money rials={quote.monthly.cost_rials} />
                    </Table.Td>
                  </Table.Tr>
                </>
              ) : null}
              <Table.Tr>
                <Table.Td>{t('campaignEditor.total.credit')}</Table.Td>
                <Table.Td ta="end" c={short ? 'red' : undefined} data-testid="editor-credit">
                  <Money rials={quote.credit_rials} />
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        ) : (
          <Text size="sm" c="dimmed">
            {t('campaignEditor.total.waiting')}
          </Text>
        )}
        {quote?.monthly ? (
          <Text size="xs" c="dimmed">
            {t('campaignEditor.series.monthlyHint')}
          </Text>
        ) : null}
        {short ? (
          <Alert color="red" data-testid="editor-no-credit">
            {t('campaignEditor.blocks.noCredit', {
              cost: money.text(quote.total_cost_rials),
              credit: money.text(quote.credit_rials),
            })}
          </Alert>
        ) : null}
        {quoteError ? (
          <Alert color="red" data-testid="editor-quote-error">
            {t('campaignEditor.quoteFailed', { error: describe(quoteError) })}
          </Alert>
        ) : null}
        <Divider />
        {blocks.length > 0 ? (
          <Stack gap={4} data-testid="editor-blocks">
            <Text size="sm" fw={500}>
              {t('campaignEditor.schedule.before')}
            </Text>
            <List size="sm" spacing={2}>
              {blocks.map((block, i) => (
                <List.Item
                  key={i}
                  data-testid={`editor-block-${block.kind === 'problem' ? (block.problem.field ?? 'other') : block.kind}`}
                >
                  {blockText(block)}
                </List.Item>
              ))}
            </List>
          </Stack>
        ) : quote && fresh ? (
          <Group gap={6} c="teal.8" data-testid="editor-ready">
            <IconCircleCheck size={16} />
            <Text size="sm">{t('campaignEditor.schedule.ready')}</Text>
          </Group>
        ) : quote ? (
          <Group gap={6} c="dimmed">
            <Loader size={14} />
            <Text size="sm">{t('campaignEditor.schedule.checking')}</Text>
          </Group>
        ) : null}
        <Button
          size="md"
          leftSection={<IconCalendarEvent size={18} />}
          disabled={!canSchedule}
          onClick={() => setConfirming(true)}
          data-testid="editor-schedule"
        >
          {t(series ? 'campaignEditor.series.button' : 'campaignEditor.schedule.button')}
        </Button>
        {createError && !confirming ? (
          <Alert color="red" data-testid="editor-create-error">
            {describe(createError)}
          </Alert>
        ) : null}
      </Stack>
      <CampaignConfirmation
        opened={confirming}
        title={t(series ? 'campaignEditor.series.confirmTitle' : 'campaignEditor.schedule.confirmTitle')}
        campaign={
          quote
            ? {
                name: fields.name,
                recipients: quote.audience.recipients,
                filter: filterWords(fields.filter, language, t),
                sender: fields.sender,
                gateway,
                pages: quote.total_pages,
                costRials: quote.total_cost_rials,
                sendRate: fields.send_rate,
                quietHours: fields.quiet_hours?.trim() || null,
                when: wall
                  ? t('campaignEditor.when.dayAtZone', {
                      ...wallTimeParts(wall, language),
                      zone: fields.time_zone ? zoneName(fields.time_zone, language) : '',
                    })
                  : null,
                lastMessageAt: series ? null : quote.estimated_last_message_at,
                series: quote.monthly
                  ? {
                      kind: fields.trigger ? 'trigger' : 'repeat',
                      sentence: seriesSentence(fields, zoneName(seriesZone, language), t, language) ?? '',
                      recipients: seriesRecipients,
                      recipientsLabel: t(
                        fields.trigger
                          ? 'campaignEditor.series.perOccurrenceTrigger'
                          : 'campaignEditor.series.perOccurrence',
                      ),
                      monthlyCostRials: quote.monthly.cost_rials,
                      next: quote.monthly.first_at,
                      zone: seriesZone,
                    }
                  : null,
              }
            : null
        }
        busy={creating}
        confirmLabel={t(series ? 'campaignEditor.series.confirm' : 'campaignEditor.schedule.confirm')}
        cancelLabel={t('campaignEditor.schedule.cancel')}
        onConfirm={() => void schedule()}
        onClose={() => setConfirming(false)}
        testId="editor"
      >
        {createError ? (
          <Alert color="red" data-testid="editor-create-error">
            {describe(createError)}
          </Alert>
        ) : null}
      </CampaignConfirmation>
    </Paper>
  );
}
