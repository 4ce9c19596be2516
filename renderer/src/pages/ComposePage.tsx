// Compose: line, text with a live preview (final text, characters, pages, cost), receivers with
// invalid/duplicate preview, send after a confirmation, result. The instant preview comes from the
// shared pricing; the core's quote of the very send (the compose store asks a moment after typing
// stops) decides the line, the receivers counted, each receiver's own text and the credit, and is
// what the confirmation shows.
//
// Typing must stay quick with 20,000 pasted receivers: this page reads neither the text nor the
// receivers, so a keystroke re-renders only the text field and the preview; the receivers are
// parsed once per change of their field (stores/compose.ts).
import { Alert, Button, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAntennaBarsOff, IconSend, IconSettings } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../stores/context';
import { composeSelectors, sendableLines } from '../stores/compose';
import { composePreview } from '../lib/preview';
import { EmptyState } from '../components/EmptyState';
import { useMoney } from '../components/Money';
import { DraftForm } from '../components/compose/DraftForm';
import { PreviewCard, type PreviewFigures } from '../components/compose/PreviewCard';
import { ReceiversCard } from '../components/compose/ReceiversCard';
import { SendConfirmation } from '../components/compose/SendConfirmation';
import { SendResult } from '../components/compose/SendResult';
import { navigate } from '../components/useRoute';

export function ComposePage() {
  const { t } = useTranslation();
  const { compose } = useStores();
  // No line the panel may send from (none at all, or only the API's): nothing to compose with yet.
  const noLines = useStore(compose, (s) => !s.loading && sendableLines(s.lines).length === 0 && s.pricing !== null);
  const refreshSegments = useStore(compose, (s) => s.refreshSegments);
  useEffect(() => {
    void refreshSegments();
  }, [refreshSegments]);

  if (noLines) {
    return (
      <Stack>
        <Title order={2}>{t('compose.title')}</Title>
        <EmptyState
          testId="compose-no-lines"
          icon={<IconAntennaBarsOff size={28} />}
          title={t('compose.noLines')}
          hint={t('compose.noLinesHint')}
        />
        <Group justify="center">
          <Button
            component="a"
            href="#/settings/lines"
            onClick={(event: React.MouseEvent) => {
              event.preventDefault();
              navigate('settings/lines');
            }}
            leftSection={<IconSettings size={16} />}
            data-testid="compose-no-lines-action"
          >
            {t('compose.noLinesAction')}
          </Button>
        </Group>
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
            <ReceiversCard />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack>
            <Preview />
            <SendPanel />
          </Stack>
        </Grid.Col>
      </Grid>
      <SendResult />
    </Stack>
  );
}

/** Receivers the send will be charged for: the core's count, else the parsed list plus the segment. */
function useReceiverCount(): number {
  const { compose } = useStores();
  const quote = useStore(compose, composeSelectors.currentQuote);
  const local = useStore(
    compose,
    (s) => s.analysis.valid.length + (s.segments.find((segment) => segment.id === s.segmentId)?.member_count ?? 0),
  );
  return quote?.receivers.total ?? local;
}

function Preview() {
  const { compose, preferences } = useStores();
  const { text, pricing } = useStore(
    compose,
    useShallow((s) => ({ text: s.text, pricing: s.pricing })),
  );
  const line = useStore(compose, composeSelectors.line);
  const quote = useStore(compose, composeSelectors.currentQuote);
  const warnAbovePages = useStore(preferences, (s) => s.warnAbovePages);
  const receivers = useReceiverCount();
  const instant = useMemo(
    () => (pricing && line ? composePreview(text, line.provider, pricing, receivers) : null),
    [text, pricing, line, receivers],
  );
  // When the core has priced the draft as it is now, its figures are the ones shown (a
  // personalized text: the first receiver's own text and price, and the sum of everyone's).
  const preview = useMemo((): PreviewFigures | null => {
    if (!instant) return null;
    if (!quote) return { ...instant, personalized: false, sampleReceptor: null, maxPages: instant.pages };
    return {
      ...instant,
      finalText: quote.final_text,
      characters: quote.units,
      pages: quote.pages,
      perPage: quote.per_page,
      costPerMessageRials: quote.cost_per_message_rials,
      totalRials: quote.total_cost_rials,
      personalized: quote.personalized,
      sampleReceptor: quote.sample_receptor,
      maxPages: quote.max_pages,
    };
  }, [instant, quote]);
  return <PreviewCard preview={preview} receivers={receivers} warnAbovePages={warnAbovePages} />;
}

/**
 * The send button opens the confirmation; only its confirm sends. The store's `sending` guard
 * makes a second click (on either) a no-op while a send is under way, and a sent draft is cleared.
 */
function SendPanel() {
  const { t } = useTranslation();
  const money = useMoney();
  const { compose, session } = useStores();
  const { sending, error, quote } = useStore(
    compose,
    useShallow((s) => ({ sending: s.sending, error: s.error, quote: s.quote })),
  );
  const canSend = useStore(compose, composeSelectors.canSend);
  const current = useStore(compose, composeSelectors.currentQuote);
  const quoteError = useStore(compose, composeSelectors.currentQuoteError);
  const receivers = useReceiverCount();
  const [confirming, setConfirming] = useState(false);

  // The core's quote compares the whole send's cost with the credit; saying it here saves a refused
  // send. Its last answer stands until the next one, so the warning does not flicker while typing.
  const short = quote !== null && !quote.enough_credit;

  const open = () => {
    // The figures confirmed must be the draft's as it is now: ask at once rather than after the pause.
    if (current === null) void compose.getState().refreshQuote();
    setConfirming(true);
  };
  const confirm = async () => {
    setConfirming(false);
    if (await compose.getState().send()) void session.getState().refreshAccounts();
  };

  return (
    <Paper withBorder p="md">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" c="dimmed">
          {t('compose.sendHint')}
        </Text>
        <Button
          leftSection={<IconSend size={16} />}
          onClick={open}
          disabled={!canSend || receivers === 0 || short}
          loading={sending}
          data-testid="compose-send"
          style={{ flexShrink: 0 }}
        >
          {t('compose.send')}
        </Button>
      </Group>
      {short ? (
        <Alert color="orange" mt="sm" data-testid="compose-no-credit">
          {t('compose.noCredit', {
            cost: money.text(quote.total_cost_rials),
            credit: money.text(quote.credit_rials),
          })}
        </Alert>
      ) : null}
      {quoteError ? (
        <Alert color="red" mt="sm" data-testid="compose-quote-error">
          {quoteError}
        </Alert>
      ) : null}
      {error ? (
        <Alert color="red" mt="sm" data-testid="compose-error">
          {error}
        </Alert>
      ) : null}
      <SendConfirmation opened={confirming} onClose={() => setConfirming(false)} onConfirm={() => void confirm()} />
    </Paper>
  );
}
