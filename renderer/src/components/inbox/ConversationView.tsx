// One customer's conversation (#/inbox/thread/<number>): who they are (their name and columns
// from the segments holding the number), the lines they wrote to (each done or open, undoable),
// the thread of our messages (with their live status) and their replies in time order, older
// pages on demand, and the answer box: it answers from the line the customer wrote to, after the
// confirmation with the core's quote.
import { Alert, Anchor, Badge, Button, Group, Loader, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconCheck, IconRefresh, IconSend } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../stores/context';
import { useLanguage } from '../../i18n/useLanguage';
import { useTextDirection, directionFor } from '../../lib/direction';
import { counted, formatDateTime, type Language } from '../../lib/format';
import { BackLink } from '../BackLink';
import { PhoneNumber } from '../PhoneNumber';
import { StatusBadge } from '../StatusBadge';
import { Money } from '../Money';
import { errorMessage } from '../../stores/errors';
import { ReplyConfirmation } from './ReplyConfirmation';
import type { ContactCard, ThreadEntry } from '../../../../shared/ipc/contracts/inbox';

export function ConversationView({ phone }: { phone: string }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { inbox } = useStores();
  const conversation = useStore(inbox, (s) => s.conversation);
  const accountId = useStore(inbox, (s) => s.accountId);
  useEffect(() => {
    if (accountId !== null) void inbox.getState().openConversation(phone);
  }, [inbox, phone, accountId]);
  useEffect(() => () => inbox.getState().closeConversation(), [inbox]);

  const info = conversation?.phone === phone ? conversation.info : null;
  const lines = info?.lines ?? [];
  // The answer goes out on the line the customer wrote to: the newest reply's, unless another is chosen.
  const [chosenLine, setChosenLine] = useState<string | null>(null);
  const line =
    chosenLine !== null && lines.some((l) => l.line_number === chosenLine) ? chosenLine : lines[0]?.line_number;

  return (
    <Stack data-testid="inbox-conversation" data-phone={phone} gap="sm">
      <BackLink to="inbox" label={t('inbox.conversation.back')} testId="conversation-back" />
      {info === null ? (
        <Loader size="sm" m="xl" />
      ) : (
        <>
          <CardHeader card={info.contact} language={language} />
          <Paper withBorder p="sm">
            <Stack gap={6}>
              <Text size="sm" c="dimmed">
                {t('inbox.conversation.lines')}
              </Text>
              {lines.map((l) => (
                <Group
                  key={l.line_number}
                  gap="sm"
                  data-testid="conversation-line"
                  data-line={l.line_number}
                  data-done={l.done}
                >
                  <Anchor
                    component="button"
                    type="button"
                    fw={l.line_number === line ? 700 : 400}
                    onClick={() => setChosenLine(l.line_number)}
                    data-testid="conversation-line-choose"
                  >
                    {t('inbox.conversation.line')} <PhoneNumber number={l.line_number} />
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(l.last_at, language)}
                  </Text>
                  {l.done ? (
                    <Badge color="gray" variant="light" data-testid="conversation-done-badge">
                      {t('inbox.conversation.done')}
                    </Badge>
                  ) : null}
                  <Button
                    size="compact-sm"
                    variant={l.done ? 'default' : 'light'}
                    leftSection={l.done ? <IconRefresh size={14} /> : <IconCheck size={14} />}
                    onClick={() => void inbox.getState().setDone(l.line_number, phone, !l.done)}
                    data-testid="conversation-done"
                  >
                    {l.done ? t('inbox.conversation.reopen') : t('inbox.conversation.markDone')}
                  </Button>
                </Group>
              ))}
            </Stack>
          </Paper>
          {line !== undefined ? <ReplyBox phone={phone} line={line} /> : null}
          <Thread entries={conversation?.entries ?? []} language={language} />
          {conversation?.next ? (
            <Group justify="center">
              <Button
                variant="subtle"
                loading={conversation.loading}
                onClick={() => void inbox.getState().loadOlderThread()}
                data-testid="conversation-older"
              >
                {t('inbox.conversation.older')}
              </Button>
            </Group>
          ) : null}
        </>
      )}
    </Stack>
  );
}

/** The customer's name, number and the segments that know them, with their other columns. */
function CardHeader({ card, language }: { card: ContactCard; language: Language }) {
  const { t } = useTranslation();
  const names = card.segments.map((s) => `\u2068${s.name}\u2069`).join('، ');
  return (
    <Stack gap={4} data-testid="conversation-card">
      <Group gap="sm" align="baseline">
        <Title
          order={2}
          data-testid="conversation-name"
          dir={card.name ? directionFor(card.name, language) : undefined}
        >
          {card.name ?? <PhoneNumber number={card.phone} />}
        </Title>
        {card.name ? (
          <Text c="dimmed" fw={500}>
            <PhoneNumber number={card.phone} data-testid="conversation-phone" />
          </Text>
        ) : null}
      </Group>
      {card.segment_count === 0 ? (
        <Text size="sm" c="dimmed" data-testid="conversation-segments">
          {t('inbox.conversation.unknown')}
        </Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" data-testid="conversation-segments">
            {t('inbox.conversation.segments', { ...counted(card.segment_count, language), names })}
            {card.segment_count > card.segments.length
              ? ` ${t('inbox.conversation.moreSegments', counted(card.segment_count - card.segments.length, language))}`
              : null}
          </Text>
          <Group gap={6} wrap="wrap">
            {card.segments.flatMap((segment) =>
              segment.fields.map((field) => (
                <Badge
                  key={`${segment.id}-${field.column}`}
                  variant="light"
                  color="gray"
                  style={{ textTransform: 'none' }}
                  data-testid="conversation-field"
                  data-column={field.column}
                >
                  <bdi>{field.column}</bdi>: <bdi>{field.value}</bdi>
                </Badge>
              )),
            )}
          </Group>
        </>
      )}
    </Stack>
  );
}

/** The answer box: the text in its own direction; Send opens the confirmation with the quote. */
function ReplyBox({ phone, line }: { phone: string; line: string }) {
  const { t } = useTranslation();
  const { inbox } = useStores();
  const [text, setText] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const dir = useTextDirection(text);
  return (
    <Paper withBorder p="sm" data-testid="conversation-reply" data-line={line}>
      <Stack gap="xs">
        <Text size="sm" fw={500} data-testid="conversation-reply-line">
          {t('inbox.conversation.replyFrom')} <PhoneNumber number={line} />
        </Text>
        <Textarea
          autosize
          minRows={2}
          maxRows={8}
          dir={dir}
          placeholder={t('inbox.conversation.replyPlaceholder')}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            setSent(false);
          }}
          data-testid="conversation-reply-text"
        />
        {error ? (
          <Alert color="red" data-testid="conversation-reply-error">
            {error}
          </Alert>
        ) : null}
        <Group justify="space-between">
          <Text size="sm" c="teal" data-testid="conversation-reply-sent">
            {sent ? t('inbox.conversation.sent') : ''}
          </Text>
          <Button
            leftSection={<IconSend size={16} />}
            disabled={text.trim() === ''}
            onClick={() => {
              setError(null);
              setConfirming(true);
            }}
            data-testid="conversation-reply-send"
          >
            {t('inbox.conversation.send')}
          </Button>
        </Group>
      </Stack>
      <ReplyConfirmation
        opened={confirming}
        phone={phone}
        line={line}
        message={text}
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          inbox
            .getState()
            .sendReply(line, text)
            .then(() => {
              // Cleared, so the same answer cannot go twice by accident.
              setText('');
              setSent(true);
            })
            .catch((refusal: unknown) => setError(errorMessage(refusal)))
            .finally(() => setConfirming(false));
        }}
      />
    </Paper>
  );
}

/** The thread, newest first: our messages on one side with their status, the customer's on the other. */
function Thread({ entries, language }: { entries: ThreadEntry[]; language: Language }) {
  const { t } = useTranslation();
  if (entries.length === 0)
    return (
      <Text c="dimmed" data-testid="conversation-empty">
        {t('inbox.conversation.emptyThread')}
      </Text>
    );
  return (
    <Stack gap="xs" data-testid="conversation-thread">
      {entries.map((entry) => {
        const ours = entry.kind === 'sent';
        return (
          <Group key={`${entry.kind}-${entry.id}`} justify={ours ? 'flex-end' : 'flex-start'}>
            <Paper
              withBorder
              p="xs"
              maw="75%"
              bg={ours ? 'blue.0' : 'gray.0'}
              data-testid="conversation-entry"
              data-kind={entry.kind}
              data-id={entry.id}
              data-status={entry.kind === 'sent' ? entry.status : undefined}
            >
              <Stack gap={4}>
                <Text
                  size="sm"
                  dir={directionFor(entry.text, language)}
                  data-user-text
                  style={{ whiteSpace: 'pre-wrap' }}
                  data-testid="conversation-entry-text"
                >
                  {entry.text}
                </Text>
                <Group gap={6} wrap="wrap">
                  <Text size="xs" c="dimmed">
                    {formatDateTime(entry.at, language)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {ours ? t('inbox.conversation.sentOn') : t('inbox.conversation.receivedOn')}{' '}
                    <PhoneNumber number={entry.line_number} />
                  </Text>
                  {entry.kind === 'sent' ? (
                    <>
                      <Badge size="xs" variant="outline" color="gray" style={{ textTransform: 'none' }}>
                        {t(`inbox.conversation.origin.${entry.origin}`, { defaultValue: entry.origin })}
                      </Badge>
                      <StatusBadge status={entry.status} />
                      <Text size="xs" c="dimmed">
                        <Money rials={entry.cost_rials} />
                      </Text>
                    </>
                  ) : entry.opt_out ? (
                    <Badge size="xs" color="red" variant="light">
                      {t('inbox.optOut')}
                    </Badge>
                  ) : null}
                </Group>
              </Stack>
            </Paper>
          </Group>
        );
      })}
    </Stack>
  );
}
