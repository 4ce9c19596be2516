// The way back to a list (all segments, all campaigns, all sends). The arrow points to where the
// page starts: left in English, right in Persian.
import { Anchor, Group, useDirection } from '@mantine/core';
import { IconArrowBack } from '@tabler/icons-react';
import { navigate } from './useRoute';

export function BackLink({ to, label, testId }: { to: string; label: string; testId: string }) {
  const { dir } = useDirection();
  return (
    <Anchor
      size="sm"
      href={`#/${to}`}
      onClick={(event) => {
        event.preventDefault();
        navigate(to);
      }}
      data-testid={testId}
    >
      <Group gap={4}>
        <IconArrowBack size={14} style={dir === 'rtl' ? { transform: 'scaleX(-1)' } : undefined} />
        {label}
      </Group>
    </Anchor>
  );
}
