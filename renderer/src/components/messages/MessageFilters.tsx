// Filters of the messages table: status, sender line, period, receiver and text. Text fields
// apply after a short pause in typing so each keystroke does not re-query a million rows. The
// status choices are the statuses that occur, by their short labels (the full text on hover);
// beside them, which of the final statuses cost money.
import { Button, Group, MultiSelect, Select, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconFilterOff, IconInfoCircle, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../stores/context';
import { statusFilterOptions } from '../../lib/status';
import { CostHint } from './CostHint';
import { useLanguage } from '../../i18n/useLanguage';
import { periodRange, PERIODS, type Period } from '../../lib/periods';

export function MessageFilters() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { messages, compose } = useStores();
  const { filter, setFilter, clearFilter } = useStore(
    messages,
    useShallow((s) => ({ filter: s.filter, setFilter: s.setFilter, clearFilter: s.clearFilter })),
  );
  const lines = useStore(compose, (s) => s.lines);
  const [period, setPeriod] = useState<Period>(filter.period ?? 'all');
  const [text, setText] = useState(filter.text ?? '');
  const [receptor, setReceptor] = useState(filter.receptor ?? '');
  const applyText = useDebouncedCallback((value: string) => setFilter({ text: value }), 300);
  const applyReceptor = useDebouncedCallback((value: string) => setFilter({ receptor: value }), 300);
  const statusOptions = statusFilterOptions(language);
  const descriptions = new Map(statusOptions.map((o) => [o.value, o.description]));

  return (
    <Stack gap={4}>
      <Group gap="sm" align="end" data-testid="message-filters">
        <MultiSelect
          label={t('messages.filters.status')}
          placeholder={filter.statuses?.length ? undefined : t('messages.filters.any')}
          data={statusOptions.map(({ value, label }) => ({ value, label }))}
          renderOption={({ option }) => (
            <Tooltip
              label={descriptions.get(option.value)}
              openDelay={300}
              multiline
              maw={320}
              position={language === 'fa' ? 'left' : 'right'}
            >
              <span data-testid="status-option" data-status={option.value}>
                {option.label}
              </span>
            </Tooltip>
          )}
          value={(filter.statuses ?? []).map(String)}
          onChange={(values) => setFilter({ statuses: values.map(Number) })}
          clearable
          w={220}
          comboboxProps={{ withinPortal: true }}
          data-testid="filter-status"
        />
        <Select
          label={t('messages.filters.sender')}
          placeholder={t('messages.filters.any')}
          data={lines.map((l) => l.number)}
          value={filter.sender ?? null}
          onChange={(value) => setFilter({ sender: value ?? undefined })}
          clearable
          w={150}
          data-testid="filter-sender"
        />
        <Select
          label={t('messages.filters.period')}
          data={PERIODS.map((p) => ({ value: p, label: t(`messages.periods.${p}`) }))}
          value={period}
          allowDeselect={false}
          onChange={(value) => {
            const next = (value ?? 'all') as Period;
            setPeriod(next);
            const range = periodRange(next, Date.now());
            setFilter({ period: next, from: range.from, to: range.to });
          }}
          w={140}
          data-testid="filter-period"
        />
        <TextInput
          label={t('messages.filters.receptor')}
          placeholder={t('messages.filters.receptorPlaceholder')}
          value={receptor}
          onChange={(event) => {
            setReceptor(event.currentTarget.value);
            applyReceptor(event.currentTarget.value);
          }}
          w={160}
          dir="ltr"
          data-testid="filter-receptor"
        />
        <TextInput
          label={t('messages.filters.text')}
          placeholder={t('messages.filters.textPlaceholder')}
          leftSection={<IconSearch size={16} />}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            applyText(event.currentTarget.value);
          }}
          w={180}
          data-testid="filter-text"
        />
        <Button
          variant="subtle"
          leftSection={<IconFilterOff size={16} />}
          onClick={() => {
            setText('');
            setReceptor('');
            setPeriod('all');
            clearFilter();
          }}
          data-testid="filter-clear"
        >
          {t('messages.filters.clear')}
        </Button>
      </Group>
      <Text size="xs" c="dimmed" data-testid="messages-cost-hint">
        <IconInfoCircle size={14} style={{ verticalAlign: 'middle', marginInlineEnd: 4 }} />
        <CostHint />
      </Text>
    </Stack>
  );
}
