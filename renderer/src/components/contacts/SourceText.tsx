// Where a segment's members came from, in words: a file, an API upload, "A ∪ B − C", a campaign.
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SegmentSummary } from '../../api';

export function SourceText({ source }: { source: SegmentSummary['source'] }) {
  const { t } = useTranslation();
  return (
    <Text size="sm" c="dimmed" dir="auto" data-testid="segment-source" data-kind={source.kind} truncate="end" maw={260}>
      {t(`contacts.source.${source.kind}`)}
      {source.label ? (
        <>
          {' '}
          {/* A Latin file name in a Persian line (or the reverse) keeps its own order. */}
          <bdi>{source.label}</bdi>
        </>
      ) : null}
    </Text>
  );
}
