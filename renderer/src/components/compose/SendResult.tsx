// The answer of a send: totals, then one row per receiver: the accepted messages with their
// status moving live, and the invalid and duplicate receivers with theirs (0 and 15). Rows are
// numbered by their real place in the send: of 20,000 messages the last 200 listed are rows
// 19,801–20,000, then the rejected entries. The send opens in Messages with its own messages only
// (#/messages/send/<send_id>).
import { Anchor, Group, Paper, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { MessageStatus } from '../../../../shared/status';
import { counted, digits, formatNumber } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { StatusBadge } from '../StatusBadge';
import { Money } from '../Money';
import { navigate } from '../useRoute';
import { PhoneNumber } from '../PhoneNumber';

interface ResultLine {
  key: string;
  position: number;
  receptor: string;
  status: number;
  messageId: number | null;
  cost: number;
}

export function SendResult() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { result, rows } = useStore(
    useStores().compose,
    useShallow((s) => ({ result: s.result, rows: s.resultRows })),
  );
  if (!result) return null;
  // The listed messages are the send's last (its ids are consecutive): the newest is the last accepted.
  const lastId = rows.reduce((max, r) => Math.max(max, r.id), 0);
  const lines: ResultLine[] = [
    ...rows.map((r) => ({
      key: `m${r.id}`,
      position: result.accepted - (lastId - r.id),
      receptor: r.receptor,
      status: r.status,
      messageId: r.id,
      cost: r.cost_rials,
    })),
    ...result.invalid.map((raw, i) => ({
      key: `i${i}`,
      position: result.accepted + i + 1,
      receptor: raw,
      status: MessageStatus.Invalid,
      messageId: null,
      cost: 0,
    })),
    ...result.duplicates.map((p, i) => ({
      key: `d${i}`,
      position: result.accepted + result.invalid.length + i + 1,
      receptor: p,
      status: MessageStatus.Duplicate,
      messageId: null,
      cost: 0,
    })),
  ];
  const more = result.accepted - rows.length;
  return (
    <Paper withBorder p="md" data-testid="compose-result">
      <Stack>
        <Text size="sm" c="dimmed" data-testid="result-cleared">
          {t('compose.cleared')}
        </Text>
        <Group justify="space-between">
          <Group gap="sm" align="baseline">
            <Text fw={600}>{t('compose.result')}</Text>
            <Anchor
              size="sm"
              href={`#/messages/send/${result.send_id}`}
              onClick={(event) => {
                event.preventDefault();
                navigate(`messages/send/${result.send_id}`);
              }}
              data-testid="result-open-send"
              data-send-id={result.send_id}
            >
              {t('compose.openSend')}
            </Anchor>
          </Group>
          <Group gap="lg">
            <Text size="sm" c="teal.8" data-testid="result-accepted" data-value={result.accepted}>
              {t('compose.accepted', { n: formatNumber(result.accepted, language) })}
            </Text>
            <Text size="sm" c="red" data-testid="result-invalid" data-value={result.invalid.length}>
              {t('compose.invalidN', { n: formatNumber(result.invalid.length, language) })}
            </Text>
            <Text size="sm" c="yellow.8" data-testid="result-duplicate" data-value={result.duplicates.length}>
              {t('compose.duplicatesN', { n: formatNumber(result.duplicates.length, language) })}
            </Text>
            <Text size="sm" fw={600} data-testid="result-cost">
              <Money rials={result.total_rials} />
            </Text>
          </Group>
        </Group>
        <ScrollArea.Autosize mah={420}>
          <Table striped highlightOnHover stickyHeader>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={80}>#</Table.Th>
                <Table.Th>{t('messages.columns.receptor')}</Table.Th>
                <Table.Th>{t('messages.columns.status')}</Table.Th>
                <Table.Th>{t('messages.columns.id')}</Table.Th>
                <Table.Th>{t('messages.columns.cost')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {lines.map((line) => (
                <Table.Tr
                  key={line.key}
                  data-testid="result-row"
                  data-status={line.status}
                  data-position={line.position}
                >
                  <Table.Td>{formatNumber(line.position, language)}</Table.Td>
                  <Table.Td>
                    <PhoneNumber number={line.receptor} />
                  </Table.Td>
                  <Table.Td>
                    <StatusBadge status={line.status} />
                  </Table.Td>
                  <Table.Td>{line.messageId === null ? '—' : digits(line.messageId, language)}</Table.Td>
                  <Table.Td>{line.cost ? <Money rials={line.cost} /> : '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
        {more > 0 ? (
          <Text size="sm" c="dimmed" data-testid="result-more">
            {t('compose.moreInSend', counted(more, language))}{' '}
            <Anchor href={`#/messages/send/${result.send_id}`}>{t('compose.openSend')}</Anchor>
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}
