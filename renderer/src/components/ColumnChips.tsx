// A text's placeholders offered as chips: each column puts `{{NAME}}` where the cursor is. One
// component for every editor that fills a text per recipient (Compose, a campaign's body).
import { Button, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function ColumnChips({
  columns,
  insert,
  label,
  hint,
  testIdPrefix,
  disabled = false,
  labelOf = (column) => <bdi dir="auto">{column}</bdi>,
}: {
  columns: readonly string[];
  insert(text: string): void;
  label: string;
  /** Shown while there is no column of a segment to offer (one column or none). */
  hint: string;
  /** Each chip's test id is `<prefix>-<COLUMN>`. */
  testIdPrefix: string;
  disabled?: boolean;
  labelOf?(column: string): ReactNode;
}) {
  return (
    <Stack gap={6}>
      <Group gap={6}>
        <Text size="sm" c="dimmed">
          {label}
        </Text>
        {columns.map((column) => (
          <Button
            key={column}
            size="compact-xs"
            variant="light"
            radius="xl"
            disabled={disabled}
            onClick={() => insert(`{{${column}}}`)}
            data-testid={`${testIdPrefix}-${column}`}
          >
            {labelOf(column)}
          </Button>
        ))}
      </Group>
      {columns.length <= 1 ? (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
    </Stack>
  );
}
