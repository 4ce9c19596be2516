// Who will receive the campaign, as the core counted it (distinct numbers of the inclusion
// segments, minus the exclusion segments, minus the opt-out list), said in one sentence.
import { Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { campaignEditorSelectors } from '../../../stores/campaignEditor';
import { formatNumber } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';
import { audienceParts } from './audience';
import { useEditor } from './useEditor';
import { SaveSegment } from '../filter/SaveSegment';

export function AudienceCard() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { quote, includes } = useEditor(
    useShallow((s) => ({ quote: s.quote, includes: s.fields.inclusion_segments.length })),
  );
  const current = useEditor(campaignEditorSelectors.currentQuote);
  const audience = quote?.audience ?? null;
  const parts = audience ? audienceParts(audience, language) : [];
  const comma = language === 'fa' ? '، ' : ', ';
  return (
    <Paper withBorder p="md" data-testid="editor-audience">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={4}>{t('campaignEditor.audience.title')}</Title>
          {current === null && includes > 0 ? <Loader size="xs" data-testid="editor-quoting" /> : null}
        </Group>
        {includes === 0 || audience === null ? (
          <Text size="sm" c="dimmed">
            {t('campaignEditor.audience.none')}
          </Text>
        ) : (
          <>
            <Group gap="xs" align="baseline">
              <IconUsers size={20} style={{ alignSelf: 'center' }} />
              <Text fw={700} size="xl" data-testid="editor-audience-count" data-count={audience.recipients}>
                {formatNumber(audience.recipients, language)}
              </Text>
              <Text size="sm" c="dimmed">
                {t('campaignEditor.audience.recipients')}
              </Text>
            </Group>
            <Text size="sm" data-testid="editor-audience-sentence">
              {parts
                .map((part) => t(`campaignEditor.${part.section ?? 'audience'}.${part.key}`, part.values))
                .join(comma)}
              {parts.length > 0 ? (language === 'fa' ? ' ← ' : ' → ') : ''}
              {t('campaignEditor.audience.result', { n: formatNumber(audience.recipients, language) })}
            </Text>
            <SaveSegment recipients={audience.recipients} />
          </>
        )}
      </Stack>
    </Paper>
  );
}
