// "All segments": the way back to the Contacts list from a segment or the opt-out list. The arrow
// points to where the page starts: left in English, right in Persian.
import { Anchor, Group, useDirection } from '@mantine/core';
import { IconArrowBack } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { navigate } from '../useRoute';

export function BackLink({ testId }: { testId: string }) {
  const { t } = useTranslation();
  const { dir } = useDirection();
  return (
    <Anchor
      size="sm"
      href="#/contacts"
      onClick={(event) => {
        event.preventDefault();
        navigate('contacts');
      }}
      data-testid={testId}
    >
      <Group gap={4}>
        <IconArrowBack size={14} style={dir === 'rtl' ? { transform: 'scaleX(-1)' } : undefined} />
        {t('segment.back')}
      </Group>
    </Anchor>
  );
}
