// The one look of "nothing here yet": an icon, a sentence, what to do about it, and (when there is
// one) the button that leads to that next step.
import { Stack, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';

export function EmptyState({
  icon,
  title,
  hint,
  testId,
  action,
}: {
  icon: ReactNode;
  title: string;
  hint?: string;
  testId: string;
  /** The next step's button. */
  action?: ReactNode;
}) {
  return (
    <Stack align="center" gap="xs" py="xl" data-testid={testId}>
      <ThemeIcon size={56} radius="xl" variant="light" color="gray">
        {icon}
      </ThemeIcon>
      <Text fw={600}>{title}</Text>
      {hint ? (
        <Text size="sm" c="dimmed" ta="center" maw={420}>
          {hint}
        </Text>
      ) : null}
      {action ?? null}
    </Stack>
  );
}
