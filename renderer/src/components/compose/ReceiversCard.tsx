// Receivers pasted or typed in any common format, or a segment, with what will be rejected. The
// counts are the core's (its quote of the draft as it is now) when it has answered, else the same
// shared classification, run once the field settles (stores/compose.ts); the segment's share is
// the core's alone. Every entry is counted once: valid + invalid + repeated lines = entries.
//
// Typing the message never re-renders this card (it reads no text); the big field itself is its
// own component without auto-height, so 20,000 pasted lines are not measured on each change.
import { Badge, Group, Paper, Select, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { composeSelectors } from '../../stores/compose';
import { counted, digits, formatNumber } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';
import { CountTile } from '../CountTile';
import { PHONE_PROBLEMS, phoneProblem, type PhoneProblem } from '../../../../shared/phone';

const SHOWN = 30;

export const ReceiversCard = memo(function ReceiversCard() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { compose } = useStores();
  const { segments, segmentId, setSegment, local } = useStore(
    compose,
    useShallow((s) => ({
      segments: s.segments,
      segmentId: s.segmentId,
      setSegment: s.setSegment,
      local: s.analysis,
    })),
  );
  const quote = useStore(compose, composeSelectors.currentQuote);
  const analysis = quote?.receivers ?? local;
  const entries = analysis.valid.length + analysis.invalid.length + analysis.duplicates.length;
  return (
    <Paper withBorder p="md">
      <Stack>
        <ReceiversField />
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
            {t('compose.segmentMembers', counted(quote.receivers.segment_members, language))}
          </Text>
        ) : null}
        {entries > 0 ? (
          <Text size="xs" c="dimmed" data-testid="compose-entries" data-value={entries}>
            {t('compose.entries', counted(entries, language))}
          </Text>
        ) : null}
        <SimpleGrid cols={3} spacing="xs">
          <CountTile
            label={t('compose.valid')}
            value={analysis.valid.length}
            color="teal"
            testId="compose-valid-count"
          />
          <CountTile
            label={t('compose.invalid')}
            value={analysis.invalid.length}
            color="red"
            testId="compose-invalid-count"
          />
          <CountTile
            label={t('compose.duplicates')}
            value={analysis.duplicates.length}
            color="yellow"
            testId="compose-duplicate-count"
          />
        </SimpleGrid>
        <Rejected
          title={t('compose.invalidList')}
          items={analysis.invalid}
          color="red"
          testId="compose-invalid-list"
          why={invalidWhy}
        />
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
});

/** The pasted list: re-rendered only when the list itself changes. */
const ReceiversField = memo(function ReceiversField() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { compose } = useStores();
  const receiversText = useStore(compose, (s) => s.receiversText);
  const setReceiversText = useStore(compose, (s) => s.setReceiversText);
  return (
    <Textarea
      label={t('compose.receivers')}
      description={t('compose.receiversHint')}
      placeholder={t('compose.receiversPlaceholder')}
      rows={5}
      resize="vertical"
      value={receiversText}
      onChange={(event) => setReceiversText(event.currentTarget.value)}
      data-testid="compose-receivers"
      dir="ltr"
      spellCheck={false}
      styles={{ input: { textAlign: language === 'fa' ? 'right' : 'left' } }}
    />
  );
});

/** An invalid entry's problem (the import's classifier): the entries are grouped by it. */
const invalidWhy = (item: string): PhoneProblem => phoneProblem(item) ?? 'invalid';

/**
 * Rejected entries, each shown once; one entered several times says how many. With `why`, the
 * entries shown are grouped by their problem, each group under its reason.
 */
function Rejected({
  title,
  items,
  color,
  testId,
  why,
}: {
  title: string;
  items: string[];
  color: string;
  testId: string;
  why?: (item: string) => PhoneProblem;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const counted = useMemo(() => {
    const times = new Map<string, number>();
    for (const item of items) times.set(item, (times.get(item) ?? 0) + 1);
    return [...times];
  }, [items]);
  const groups = useMemo(() => {
    const shown = counted.slice(0, SHOWN);
    if (!why) return [{ problem: null, entries: shown }];
    const byProblem = new Map<PhoneProblem, Array<[string, number]>>();
    for (const entry of shown) {
      const problem = why(entry[0]);
      byProblem.set(problem, [...(byProblem.get(problem) ?? []), entry]);
    }
    return PHONE_PROBLEMS.filter((problem) => byProblem.has(problem)).map((problem) => ({
      problem,
      entries: byProblem.get(problem)!,
    }));
  }, [counted, why]);
  if (counted.length === 0) return null;
  const badges = (entries: Array<[string, number]>) =>
    entries.map(([item, times]) => (
      <Badge
        key={item}
        color={color}
        variant="light"
        style={{ textTransform: 'none' }}
        className="ltr-value"
        data-times={times}
      >
        {times > 1 ? `${item} ×${digits(times, language)}` : item}
      </Badge>
    ));
  return (
    <Stack gap={4} data-testid={testId}>
      <Text size="sm">{title}</Text>
      {groups.map(({ problem, entries }) => (
        <Group gap={4} key={problem ?? ''} data-problem={problem ?? undefined}>
          {problem ? (
            <Text size="xs" c="dimmed" data-testid="compose-invalid-why">
              {t(`import.problems.${problem}`)}:
            </Text>
          ) : null}
          {badges(entries)}
        </Group>
      ))}
      {counted.length > SHOWN ? (
        <Text size="xs" c="dimmed">
          {t('compose.andMore', { n: digits(counted.length - SHOWN, language) })}
        </Text>
      ) : null}
    </Stack>
  );
}
