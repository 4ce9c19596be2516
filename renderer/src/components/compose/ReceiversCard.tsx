// Receivers pasted or typed in any common format, or a segment, with what will be rejected. The
// counts are the core's (its quote of the draft as it is now) when it has answered, else the same
// shared classification computed here on each keystroke; the segment's share is the core's alone.
import { Badge, Group, Paper, Select, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import type { ReceiversAnalysis } from '../../lib/receivers';
import type { ComposePreview } from '../../api';
import { digits, formatNumber } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';

const SHOWN = 30;

export function ReceiversCard({
  analysis: local,
  quote,
}: {
  analysis: ReceiversAnalysis;
  /** The core's quote of the draft as it is now, or null. */
  quote: ComposePreview | null;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { compose } = useStores();
  const { receiversText, setReceiversText, segments, segmentId, setSegment } = useStore(
    compose,
    useShallow((s) => ({
      receiversText: s.receiversText,
      setReceiversText: s.setReceiversText,
      segments: s.segments,
      segmentId: s.segmentId,
      setSegment: s.setSegment,
    })),
  );
  const analysis = quote?.receivers ?? local;
  return (
    <Paper withBorder p="md">
      <Stack>
        <Textarea
          label={t('compose.receivers')}
          description={t('compose.receiversHint')}
          placeholder={t('compose.receiversPlaceholder')}
          autosize
          minRows={4}
          maxRows={10}
          value={receiversText}
          onChange={(event) => setReceiversText(event.currentTarget.value)}
          data-testid="compose-receivers"
          dir="ltr"
          styles={{ input: { textAlign: language === 'fa' ? 'right' : 'left' } }}
        />
        <Select
          label={t('compose.segment')}
          placeholder={segments.length === 0 ? t('compose.noSegments') : t('compose.segmentPlaceholder')}
          disabled={segments.length === 0}
          clearable
          data={segments.map((s) => ({
            value: String(s.id),
            label: `${s.name} (${formatNumber(s.member_count, language)})`,
          }))}
          value={segmentId === null ? null : String(segmentId)}
          onChange={(value) => setSegment(value === null ? null : Number(value))}
          data-testid="compose-segment"
        />
        {segmentId !== null && quote !== null ? (
          <Text size="sm" data-testid="compose-segment-members" data-value={quote.receivers.segment_members}>
            {t('compose.segmentMembers', { n: formatNumber(quote.receivers.segment_members, language) })}
          </Text>
        ) : null}
        <SimpleGrid cols={3} spacing="xs">
          <Count label={t('compose.valid')} value={analysis.valid.length} color="teal" testId="compose-valid-count" />
          <Count
            label={t('compose.invalid')}
            value={analysis.invalid.length}
            color="red"
            testId="compose-invalid-count"
          />
          <Count
            label={t('compose.duplicates')}
            value={analysis.duplicates.length}
            color="yellow"
            testId="compose-duplicate-count"
          />
        </SimpleGrid>
        <Rejected title={t('compose.invalidList')} items={analysis.invalid} color="red" testId="compose-invalid-list" />
        <Rejected
          title={t('compose.duplicateList')}
          items={analysis.duplicates}
          color="yellow"
          testId="compose-duplicate-list"
        />
        {analysis.invalid.length + analysis.duplicates.length > 0 ? (
          <Text size="xs" c="dimmed">
            {t('compose.rejectedHint')}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

function Count({ label, value, color, testId }: { label: string; value: number; color: string; testId: string }) {
  const language = useLanguage();
  return (
    <Paper withBorder p="xs" radius="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} c={value > 0 ? color : undefined} data-testid={testId} data-value={value}>
        {formatNumber(value, language)}
      </Text>
    </Paper>
  );
}

function Rejected({ title, items, color, testId }: { title: string; items: string[]; color: string; testId: string }) {
  const { t } = useTranslation();
  const language = useLanguage();
  if (items.length === 0) return null;
  return (
    <Stack gap={4} data-testid={testId}>
      <Text size="sm">{title}</Text>
      <Group gap={4}>
        {items.slice(0, SHOWN).map((item, i) => (
          <Badge
            key={`${item}-${i}`}
            color={color}
            variant="light"
            style={{ textTransform: 'none' }}
            className="ltr-value"
          >
            {item}
          </Badge>
        ))}
        {items.length > SHOWN ? (
          <Text size="xs" c="dimmed">
            {t('compose.andMore', { n: digits(items.length - SHOWN, language) })}
          </Text>
        ) : null}
      </Group>
    </Stack>
  );
}
