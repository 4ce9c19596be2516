// Nothing is sent on one click: the person first sees the line, the number of messages and the
// total cost as the core's quote of this very draft counts them, with what deserves a second look
// (a long message, the same text sent to these receivers minutes ago). Above the person's own
// limit the send is confirmed by typing its number of messages.
import { Alert, Anchor, Button, Group, Loader, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../stores/context';
import { composeSelectors } from '../../stores/compose';
import { counted, formatNumber, isolate } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { Money } from '../Money';
import { Fact, SecondLooks, TypedConfirmation, useTypedConfirmation } from './ConfirmParts';
import { navigate } from '../useRoute';
import { Delivery, useGatewayKind } from '../gateways/Delivery';
import { PhoneNumber } from '../PhoneNumber';

export function SendConfirmation({
  opened,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  onClose(): void;
  onConfirm(): void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('compose.confirm.title')}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': t('compose.confirm.cancel') }}
    >
      {/* Mounted while open: each opening starts with nothing typed. */}
      <Confirmation onClose={onClose} onConfirm={onConfirm} />
    </Modal>
  );
}

function Confirmation({ onClose, onConfirm }: { onClose(): void; onConfirm(): void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { compose } = useStores();
  const quote = useStore(compose, composeSelectors.currentQuote);
  const quoteError = useStore(compose, composeSelectors.currentQuoteError);
  const line = useStore(compose, composeSelectors.line);
  const gateway = useGatewayKind(line?.number ?? '', line?.gateway.kind);

  const messages = quote?.receivers.total ?? 0;
  const confirmation = useTypedConfirmation(messages, quote?.total_cost_rials ?? null);
  const { strong, confirmed } = confirmation;
  const ready = quote !== null && quote.enough_credit && messages > 0;

  return (
    <Stack data-testid="compose-confirm">
      {quote === null ? (
        quoteError ? (
          <Alert color="red" data-testid="confirm-error">
            {quoteError}
          </Alert>
        ) : (
          <Group gap="sm" data-testid="confirm-waiting">
            <Loader size="sm" />
            <Text size="sm">{t('compose.confirm.waiting')}</Text>
          </Group>
        )
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Fact label={t('compose.confirm.line')} testId="confirm-line" value={line?.number}>
              <PhoneNumber number={line?.number ?? ''} />
              {line ? ` · ${t(`provider.${line.provider}`)}` : null}
            </Fact>
            {/* Real phones and a provider's money, or a rehearsal: said before anything is sent. */}
            <Fact label={t('gateways.confirm.delivery')} testId="confirm-gateway" value={gateway}>
              {line ? <Delivery sender={line.number} kind={line.gateway.kind} /> : null}
            </Fact>
            <Fact label={t('compose.confirm.messages')} testId="confirm-messages" value={messages}>
              {formatNumber(messages, language)}
            </Fact>
            <Fact label={t('compose.confirm.pages')} testId="confirm-pages" value={quote.max_pages}>
              {quote.personalized && quote.max_pages !== quote.pages
                ? t('compose.confirm.pagesUpTo', { n: formatNumber(quote.max_pages, language) })
                : formatNumber(quote.pages, language)}
            </Fact>
            <Fact label={t('compose.confirm.total')} testId="confirm-total" value={quote.total_cost_rials} strongly>
              <Money rials={quote.total_cost_rials} />
            </Fact>
            <Fact
              label={t('compose.confirm.creditAfter')}
              testId="confirm-credit-after"
              value={quote.credit_rials - quote.total_cost_rials}
            >
              <Money rials={quote.credit_rials - quote.total_cost_rials} />
            </Fact>
          </SimpleGrid>
          {quote.personalized ? (
            <Text size="sm" c="dimmed">
              {t('compose.confirm.personalized')}
            </Text>
          ) : null}
          <PlaceholderProblems singleBraces={quote.single_braces} placeholders={quote.placeholders} />
          <SecondLooks maxPages={quote.max_pages} recentDuplicate={quote.recent_duplicate} prefix="confirm">
            {quote.recent_duplicate ? (
              <Anchor
                size="sm"
                href={`#/messages/send/${quote.recent_duplicate.send_id}`}
                onClick={(event) => {
                  event.preventDefault();
                  onClose();
                  navigate(`messages/send/${quote.recent_duplicate!.send_id}`);
                }}
              >
                {t('compose.confirm.openRecent')}
              </Anchor>
            ) : null}
          </SecondLooks>
          <TypedConfirmation messages={messages} confirmation={confirmation} prefix="confirm" />
        </>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} data-testid="confirm-cancel">
          {t('compose.confirm.cancel')}
        </Button>
        <Button
          color={strong ? 'red' : undefined}
          disabled={!ready || !confirmed}
          onClick={onConfirm}
          data-testid="confirm-send"
        >
          {t('compose.confirm.send', counted(messages, language))}
        </Button>
      </Group>
    </Stack>
  );
}

/** Placeholders that would go out wrong: written with single braces, or matching no column. */
function PlaceholderProblems({
  singleBraces,
  placeholders,
}: {
  singleBraces: string[];
  placeholders: Array<{ name: string; known: boolean }>;
}) {
  const { t } = useTranslation();
  const unknown = placeholders.filter((p) => !p.known);
  if (singleBraces.length === 0 && unknown.length === 0) return null;
  return (
    <Alert color="orange" icon={<IconAlertTriangle size={18} />} data-testid="confirm-placeholders">
      <Stack gap={2}>
        {singleBraces.map((name) => (
          <Text key={`single-${name}`} size="sm">
            {t('compose.singleBrace', { written: isolate(`{${name}}`), meant: isolate(`{{${name}}}`) })}
          </Text>
        ))}
        {unknown.map((p) => (
          <Text key={p.name} size="sm">
            {t('compose.unknownPlaceholder', { placeholder: isolate(`{{${p.name}}}`) })}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}
