// Compose: line, text with a live preview (final text, characters, pages, encoding, the
// characters forcing UCS-2, cost), receivers with invalid/duplicate preview, send, result. The
// instant preview comes from the shared pricing; the core's quote of the very send (the compose
// store asks a moment after typing stops) decides the line, the receivers counted and the credit.
import { Alert, Button, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAntennaBarsOff, IconSend } from '@tabler/icons-react';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../stores/context';
import { composeSelectors } from '../stores/compose';
import { formatNumber } from '../lib/format';
import { useLanguage } from '../i18n/useLanguage';
import { analyzeReceivers } from '../lib/receivers';
import { composePreview } from '../lib/preview';
import { EmptyState } from '../components/EmptyState';
import { DraftForm } from '../components/compose/DraftForm';
import { PreviewCard } from '../components/compose/PreviewCard';
import { ReceiversCard } from '../components/compose/ReceiversCard';
import { SendResult } from '../components/compose/SendResult';

export function ComposePage() {
  const { t } = useTranslation();
  const { compose, session } = useStores();
  const draft = useStore(
    compose,
    useShallow((s) => ({
      text: s.text,
      receiversText: s.receiversText,
      segmentId: s.segmentId,
      segments: s.segments,
      pricing: s.pricing,
      lines: s.lines,
      loading: s.loading,
      sending: s.sending,
      error: s.error,
      lineNumber: s.lineNumber,
      quote: s.quote,
    })),
  );
  const currentQuote = useStore(compose, composeSelectors.currentQuote);
  const line = useStore(compose, composeSelectors.line);
  const canSend = useStore(compose, composeSelectors.canSend);
  const send = useStore(compose, (s) => s.send);
  const refreshSegments = useStore(compose, (s) => s.refreshSegments);
  useEffect(() => {
    void refreshSegments();
  }, [refreshSegments]);
  const language = useLanguage();

  const analysis = useMemo(() => analyzeReceivers(draft.receiversText), [draft.receiversText]);
  const segmentSize = draft.segments.find((s) => s.id === draft.segmentId)?.member_count ?? 0;
  // The core's count dedups pasted numbers against the segment; until it answers the draft as it
  // is now, a local estimate.
  const receiverCount = currentQuote?.receivers.total ?? analysis.valid.length + segmentSize;
  const instant = useMemo(
    () => (draft.pricing && line ? composePreview(draft.text, line.provider, draft.pricing, receiverCount) : null),
    [draft.text, draft.pricing, line, receiverCount],
  );
  // When the core has priced the draft as it is now, its figures are the ones shown.
  const preview = useMemo(
    () =>
      instant && currentQuote
        ? {
            ...instant,
            pages: currentQuote.pages,
            costPerMessageRials: currentQuote.cost_per_message_rials,
            totalRials: currentQuote.total_cost_rials,
          }
        : instant,
    [instant, currentQuote],
  );

  // The core's quote compares the whole send's cost with the credit; saying it here saves a refused
  // send. Its last answer stands until the next one, so the warning does not flicker while typing.
  const quote = draft.quote;
  const short = quote !== null && !quote.enough_credit;

  if (!draft.loading && draft.lines.length === 0 && draft.pricing !== null) {
    return (
      <Stack>
        <Title order={2}>{t('compose.title')}</Title>
        <EmptyState
          testId="compose-no-lines"
          icon={<IconAntennaBarsOff size={28} />}
          title={t('compose.noLines')}
          hint={t('compose.noLinesHint')}
        />
      </Stack>
    );
  }

  return (
    <Stack data-testid="page-compose">
      <Title order={2}>{t('compose.title')}</Title>
      <Grid gutter="md">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack>
            <DraftForm />
            <ReceiversCard analysis={analysis} quote={currentQuote} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack>
            <PreviewCard preview={preview} receivers={receiverCount} />
            <Paper withBorder p="md">
              <Group justify="space-between">
                <Text size="sm" c="dimmed">
                  {t('compose.sendHint')}
                </Text>
                <Button
                  leftSection={<IconSend size={16} />}
                  onClick={async () => {
                    if (await send()) void session.getState().refreshAccounts();
                  }}
                  disabled={!canSend || receiverCount === 0 || short}
                  loading={draft.sending}
                  data-testid="compose-send"
                >
                  {t('compose.send')}
                </Button>
              </Group>
              {short ? (
                <Alert color="orange" mt="sm" data-testid="compose-no-credit">
                  {t('compose.noCredit', {
                    cost: formatNumber(quote.total_cost_rials, language),
                    credit: formatNumber(quote.credit_rials, language),
                  })}
                </Alert>
              ) : null}
              {draft.error ? (
                <Alert color="red" mt="sm" data-testid="compose-error">
                  {draft.error}
                </Alert>
              ) : null}
            </Paper>
          </Stack>
        </Grid.Col>
      </Grid>
      <SendResult />
    </Stack>
  );
}
