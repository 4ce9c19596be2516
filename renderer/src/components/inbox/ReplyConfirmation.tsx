// Nothing is sent on one click, an answer neither: before it goes, the core's quote of this very
// answer states the receiver, the line it goes out on, the pages and the cost, and the credit left,
// with what deserves a second look (a long answer, the same one sent minutes ago); above the
// person's own limit it is confirmed by typing its number of messages, as in Compose.
import { Alert, Button, Group, Loader, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCopy } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../stores/context';
import { formatDateTime, formatNumber } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { Money, useMoney } from '../Money';
import { NumberField } from '../NumberField';
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
  const money = useMoney();
  const { inbox, preferences } = useStores();
  const confirmAboveRials = useStore(preferences, (s) => s.confirmAboveRials);
  const warnAbovePages = useStore(preferences, (s) => s.warnAbovePages);
  const [quote, setQuote] = useState<Quote | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [typed, setTyped] = useState<number | ''>('');
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
  const strong = quote !== null && quote.total_cost_rials > confirmAboveRials;
  const confirmed = !strong || typed === messages;
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
          {/* What deserves a second look, as Compose says it: a long answer, the same one a moment ago. */}
          {quote.max_pages > warnAbovePages ? (
            <Alert color="orange" icon={<IconAlertTriangle size={18} />} data-testid="reply-confirm-many-pages">
              {t('compose.manyPages', {
                n: formatNumber(quote.max_pages, language),
                limit: formatNumber(warnAbovePages, language),
              })}
            </Alert>
          ) : null}
          {quote.recent_duplicate ? (
            <Alert color="orange" icon={<IconCopy size={18} />} data-testid="reply-confirm-recent-duplicate">
              {t('compose.confirm.recentDuplicate', {
                n: formatNumber(quote.recent_duplicate.overlap, language),
                time: formatDateTime(quote.recent_duplicate.at, language),
              })}
            </Alert>
          ) : null}
          {!quote.enough_credit ? (
            <Alert color="red" data-testid="reply-confirm-short">
              {t('inbox.conversation.confirmShort')}
            </Alert>
          ) : null}
          {strong ? (
            <Stack gap="xs" data-testid="reply-confirm-strong">
              <Text size="sm" fw={600}>
                {t('compose.confirm.strong', {
                  limit: money.text(confirmAboveRials),
                  n: formatNumber(messages, language),
                })}
              </Text>
              <NumberField
                label={t('compose.confirm.strongLabel')}
                value={typed}
                onChange={setTyped}
                min={0}
                w={220}
                data-testid="reply-confirm-strong-input"
              />
            </Stack>
          ) : null}
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

function Fact({
  label,
  value,
  testId,
  strongly = false,
  children,
}: {
  label: string;
  /** The figure for tests (data-value), whatever the language shows. */
  value: string | number;
  testId: string;
  strongly?: boolean;
  children: React.ReactNode;
}) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={strongly ? 700 : 600} size={strongly ? 'lg' : 'md'} data-testid={testId} data-value={value}>
        {children}
      </Text>
    </Stack>
  );
}
