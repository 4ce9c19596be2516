// The import's four counts; in the review each is a button that shows its rows.
import { Paper, SimpleGrid, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ImportJob } from '../../stores/imports';
import { formatNumber } from '../../lib/format';
import { useLanguage } from '../../i18n/useLanguage';

export type CountKind = 'valid' | 'invalid' | 'duplicate' | 'opted_out';
const COLORS: Record<CountKind, string> = { valid: 'teal', invalid: 'red', duplicate: 'yellow', opted_out: 'orange' };

export function countOf(job: ImportJob, kind: CountKind): number {
  return kind === 'duplicate' ? job.duplicates : job[kind];
}

export function CountCards({
  job,
  selected,
  onSelect,
}: {
  job: ImportJob;
  selected?: CountKind | null;
  onSelect?: (kind: CountKind) => void;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
      {(['valid', 'invalid', 'duplicate', 'opted_out'] as const).map((kind) => {
        const card = (
          <Paper
            withBorder
            p="sm"
            style={
              selected === kind ? { borderColor: `var(--mantine-color-${COLORS[kind]}-6)`, borderWidth: 2 } : undefined
            }
          >
            <Text size="sm" c="dimmed">
              {t(`import.counts.${kind}`)}
            </Text>
            <Text size="xl" fw={700} c={`${COLORS[kind]}.8`}>
              {formatNumber(countOf(job, kind), language)}
            </Text>
            {onSelect ? (
              <Text size="xs" c="dimmed">
                {t(`import.countHint.${kind}`)}
              </Text>
            ) : null}
          </Paper>
        );
        return onSelect ? (
          <UnstyledButton
            key={kind}
            onClick={() => onSelect(kind)}
            data-testid={`import-count-${kind}`}
            data-value={countOf(job, kind)}
          >
            {card}
          </UnstyledButton>
        ) : (
          <div key={kind} data-testid={`import-count-${kind}`} data-value={countOf(job, kind)}>
            {card}
          </div>
        );
      })}
    </SimpleGrid>
  );
}
