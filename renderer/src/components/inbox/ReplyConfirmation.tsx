// Nothing is sent on one click, an answer neither: before it goes, the core's quote of this very
// answer states the receiver, the line it goes out on, the pages and the cost, and the credit left,
// with what deserves a second look (a long answer, the same one sent minutes ago); above the
// person's own limit it is confirmed by typing its number of messages, as in Compose.
import { Alert, Button, Group, Loader, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { formatNumber } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { Money } from '../Money';
import { Fact, SecondLooks, TypedConfirmation, useTypedConfirmation } from '../compose/ConfirmParts';
import { PhoneNumber } from '../PhoneNumber';
import { errorMessage } from '../../stores/errors';
import type { OutputOf } from '../../../../shared/ipc';

type Quote = OutputOf<'inbox:replyPreview'>;

export function ReplyConfirmation({
  opened,
  phone,
  line,
  message,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  phone: string;
  line: string;
  message: string;
  onClose(): void;
  onConfirm(): void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('inbox.conversation.confirmTitle')}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': t('inbox.conversation.confirmCancel') }}
    >
      {/* Mounted while open: each opening asks the core again. */}
      <Confirmation phone={phone} line={line} message={message} onClose={onClose} onConfirm={onConfirm} />
    </Modal>
  );
}

function Confirmation({
  phone,
  line,
  message,
  onClose,
  onConfirm,
}: {
  phone: string;
  line: string;
  message: string;
  onClose(): void;
  onConfirm(): void;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { inbox } = useStores();
  const [quote, setQuote] = useState<Quote | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  useEffect(() => {
    let current = true;
    inbox
      .getState()
      .quoteReply(line, message)
      .then((answer) => current && setQuote(answer))
      .catch((refusal: unknown) => current && setError(errorMessage(refusal)));
    return () => {
      current = false;
    };
  }, [inbox, line, message, t]);

  const messages = quote?.receivers.total ?? 0;
  const confirmation = useTypedConfirmation(messages, quote?.total_cost_rials ?? null);
  const { confirmed } = confirmation;
  const ready = quote !== null && quote.enough_credit && messages > 0;

  return (
    <Stack data-testid="reply-confirm">
      {quote === null ? (
        error ? (
          <Alert color="red" data-testid="reply-confirm-error">
            {error}
          </Alert>
        ) : (
          <Group gap="sm">
            <Loader size="sm" />
            <Text size="sm">{t('inbox.conversation.confirmWaiting')}</Text>
          </Group>
        )
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Fact label={t('inbox.conversation.confirmTo')} testId="reply-confirm-to" value={phone}>
              <PhoneNumber number={phone} />
            </Fact>
            <Fact label={t('inbox.conversation.confirmLine')} testId="reply-confirm-line" value={line}>
              <PhoneNumber number={line} />
            </Fact>
            <Fact label={t('inbox.conversation.confirmMessages')} testId="reply-confirm-messages" value={messages}>
              {formatNumber(messages, language)}
            </Fact>
            <Fact label={t('inbox.conversation.confirmPages')} testId="reply-confirm-pages" value={quote.pages}>
              {formatNumber(quote.pages, language)}
            </Fact>
            <Fact
              label={t('inbox.conversation.confirmTotal')}
              testId="reply-confirm-total"
              value={quote.total_cost_rials}
              strongly
            >
              <Money rials={quote.total_cost_rials} />
            </Fact>
            <Fact
              label={t('inbox.conversation.confirmCreditAfter')}
              testId="reply-confirm-credit-after"
              value={quote.credit_rials - quote.total_cost_rials}
            >
              <Money rials={quote.credit_rials - quote.total_cost_rials} />
            </Fact>
          </SimpleGrid>
          <SecondLooks maxPages={quote.max_pages} recentDuplicate={quote.recent_duplicate} prefix="reply-confirm" />
          {!quote.enough_credit ? (
            <Alert color="red" data-testid="reply-confirm-short">
              {t('inbox.conversation.confirmShort')}
            </Alert>
          ) : null}
          <TypedConfirmation messages={messages} confirmation={confirmation} prefix="reply-confirm" />
        </>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} data-testid="reply-confirm-cancel">
          {t('inbox.conversation.confirmCancel')}
        </Button>
        <Button
          disabled={!ready || !confirmed}
          loading={sending}
          onClick={() => {
            // One answer per confirmation, however often it is clicked.
            if (sending) return;
            setSending(true);
            onConfirm();
          }}
          data-testid="reply-confirm-send"
        >
          {t('inbox.conversation.confirmSend')}
        </Button>
      </Group>
    </Stack>
  );
}
