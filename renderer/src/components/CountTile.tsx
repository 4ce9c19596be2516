// A labelled count in a small tile (Compose's valid / invalid / duplicate receivers, the email
// composer's rows / addresses / skipped): the number in the UI's digits, coloured once it is not zero.
import { Paper, Text } from '@mantine/core';
import { formatNumber } from '../lib/format';
import { useLanguage } from '../i18n/useLanguage';

export function CountTile({
  label,
  value,
  color,
  testId,
}: {
  label: string;
  value: number;
  color?: string;
  testId: string;
}) {
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
