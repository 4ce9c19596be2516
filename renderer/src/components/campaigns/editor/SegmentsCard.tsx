// Who the campaign goes to: inclusion segments minus exclusion segments (the opt-out list is
// always left out), and only those meeting the conditions on their columns. Only finished segments
// can be chosen; one still importing is shown, disabled.
import { Divider, MultiSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { counted, formatNumber } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';
import { useEditor } from './useEditor';
import { FilterConditions } from '../filter/FilterConditions';

export function SegmentsCard() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { segments, include, exclude, update, ready } = useEditor(
    useShallow((s) => ({
      segments: s.segments,
      include: s.fields.inclusion_segments,
      exclude: s.fields.exclusion_segments,
      update: s.update,
      ready: s.status === 'ready' && s.created === null,
    })),
  );
  const optionsWithout = (other: readonly number[], chosen: readonly number[]) => {
    const options = segments.map((segment) => ({
      value: String(segment.id),
      label:
        segment.status === 'ready'
          ? t('campaignEditor.segmentOption', { ...counted(segment.member_count, language), name: segment.name })
          : t('campaignEditor.segmentImporting', { name: segment.name }),
      // A segment on the other side, or still importing, cannot be chosen here.
      disabled: segment.status !== 'ready' || other.includes(segment.id),
    }));
    // A draft may name a segment deleted since: it stays visible so it can be removed.
    for (const id of chosen)
      if (!segments.some((s) => s.id === id))
        options.push({
          value: String(id),
          label: t('campaignEditor.segmentGone', { id: formatNumber(id, language) }),
          disabled: false,
        });
    return options;
  };
  const ids = (values: string[]) => values.map(Number);
  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={4}>{t('campaignEditor.segments')}</Title>
        {segments.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="editor-no-segments">
            {t('campaignEditor.noSegments')}
          </Text>
        ) : null}
        <MultiSelect
          label={t('campaignEditor.include')}
          placeholder={include.length === 0 ? t('campaignEditor.segmentsPlaceholder') : undefined}
          data={optionsWithout(exclude, include)}
          value={include.map(String)}
          onChange={(values) => update({ inclusion_segments: ids(values) })}
          disabled={!ready}
          searchable
          clearable
          hidePickedOptions
          renderOption={({ option }) => (
            <span data-testid={`editor-include-option-${option.value}`}>{option.label}</span>
          )}
          data-testid="editor-include"
        />
        <MultiSelect
          label={t('campaignEditor.exclude')}
          placeholder={exclude.length === 0 ? t('campaignEditor.segmentsPlaceholder') : undefined}
          data={optionsWithout(include, exclude)}
          value={exclude.map(String)}
          onChange={(values) => update({ exclusion_segments: ids(values) })}
          disabled={!ready}
          searchable
          clearable
          hidePickedOptions
          renderOption={({ option }) => (
            <span data-testid={`editor-exclude-option-${option.value}`}>{option.label}</span>
          )}
          data-testid="editor-exclude"
        />
        <Text size="xs" c="dimmed">
          {t('campaignEditor.optOutsHint')}
        </Text>
        <Divider />
        <FilterConditions />
      </Stack>
    </Paper>
  );
}
