// "Only people whose…": conditions on the included segments' columns, all of which a recipient
// must meet (column, operator, value: equals / contains / one of a list / between two numbers or
// days). Values are offered from the column's most frequent ones; the core compares them folded
// (any digits, Arabic and Persian letters alike). Complete rows are written to the draft's filter,
// and the audience is counted again by the core as for any change.
import {
  ActionIcon,
  Autocomplete,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconFilter, IconPlus, IconX } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { EDITOR_FILTER_OPS } from '../../../../../shared/audience-filter';
import { formatNumber } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';
import { useTextDirection } from '../../../lib/direction';
import { DateField, type Day } from '../editor/DateField';
import { useEditor } from '../editor/useEditor';
import { conditionOf, filterOf, MAX_CONDITIONS, newRow, rowsOf, sameFilter, type FilterRow } from './rows';
import { useColumnValues, type ColumnValue } from './useColumnValues';
import { filterWords } from './words';

const pad = (n: number) => String(n).padStart(2, '0');
const dayOf = (text: string | null): Day | null => {
  const match = text ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(text) : null;
  return match ? { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) } : null;
};
const textOf = (day: Day) => `${day.year}-${pad(day.month)}-${pad(day.day)}`;

export function FilterConditions() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { segments, include, filter, update, ready } = useEditor(
    useShallow((s) => ({
      segments: s.segments,
      include: s.fields.inclusion_segments,
      filter: s.fields.filter,
      update: s.update,
      ready: s.status === 'ready' && s.created === null,
    })),
  );
  const [rows, setRows] = useState<FilterRow[]>(() => rowsOf(filter));
  const [shown, setShown] = useState(filter);
  // A filter that is not the rows' (another draft opened) is shown as its rows; the rows' own
  // writes come back equal and leave the rows being filled in as they are.
  if (filter !== shown) {
    setShown(filter);
    if (!sameFilter(filterOf(rows), filter)) setRows(rowsOf(filter));
  }

  /** The included segments' columns, in their order, each once. */
  const columns = useMemo(() => {
    const seen = new Set<string>();
    for (const id of include) for (const column of segments.find((s) => s.id === id)?.columns ?? []) seen.add(column);
    return [...seen];
  }, [segments, include]);

  const change = (next: FilterRow[]) => {
    setRows(next);
    const written = filterOf(next);
    if (!sameFilter(written, filter)) update({ filter: written });
  };
  const changeRow = (key: number, changes: Partial<FilterRow>) =>
    change(rows.map((row) => (row.key === key ? { ...row, ...changes } : row)));

  const said = filterWords(filter, language, t);

  return (
    <Stack gap="xs" data-testid="filter">
      <Group gap={6}>
        <IconFilter size={16} />
        <Text fw={500} size="sm">
          {t('campaignEditor.filter.title')}
        </Text>
      </Group>
      {columns.length === 0 ? (
        <Text size="xs" c="dimmed" data-testid="filter-no-columns">
          {t('campaignEditor.filter.noColumns')}
        </Text>
      ) : null}
      {rows.map((row, index) => (
        <ConditionRow
          key={row.key}
          row={row}
          index={index}
          columns={columns}
          include={include}
          disabled={!ready}
          onChange={(changes) => changeRow(row.key, changes)}
          onRemove={() => change(rows.filter((r) => r.key !== row.key))}
        />
      ))}
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} />}
          disabled={!ready || columns.length === 0 || rows.length >= MAX_CONDITIONS}
          onClick={() => change([...rows, newRow(columns.length === 1 ? columns[0]! : null)])}
          data-testid="filter-add"
        >
          {t('campaignEditor.filter.add')}
        </Button>
      </Group>
      {said ? (
        <Text size="sm" fw={500} data-testid="filter-words">
          {t('campaignEditor.filter.applied', { words: said })}
        </Text>
      ) : null}
      {rows.length > 0 ? (
        <Text size="xs" c="dimmed">
          {t('campaignEditor.filter.hint')}
        </Text>
      ) : null}
    </Stack>
  );
}

function ConditionRow({
  row,
  index,
  columns,
  include,
  disabled,
  onChange,
  onRemove,
}: {
  row: FilterRow;
  index: number;
  columns: string[];
  include: number[];
  disabled: boolean;
  onChange(changes: Partial<FilterRow>): void;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  const complete = conditionOf(row) !== null;
  // A column the segments no longer have stays visible, to be changed or removed.
  const columnData = row.column !== null && !columns.includes(row.column) ? [...columns, row.column] : columns;
  const wantsValues = row.op === 'equals' || row.op === 'in';
  const values = useColumnValues(include, wantsValues ? row.column : null);
  return (
    <Paper withBorder p="xs" radius="sm" data-testid={`filter-row-${index}`} data-complete={complete}>
      <Stack gap={6}>
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <Select
            label={t('campaignEditor.filter.column')}
            placeholder={t('campaignEditor.filter.columnPlaceholder')}
            data={columnData}
            value={row.column}
            onChange={(column) => onChange({ column })}
            disabled={disabled}
            searchable
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            style={{ flex: 1 }}
            data-testid={`filter-column-${index}`}
          />
          <Select
            label={t('campaignEditor.filter.op')}
            data={EDITOR_FILTER_OPS.map((op) => ({ value: op, label: t(`campaignEditor.filter.ops.${op}`) }))}
            value={row.op}
            onChange={(op) => op && onChange({ op: op as FilterRow['op'] })}
            disabled={disabled}
            allowDeselect={false}
            style={{ flex: 1 }}
            data-testid={`filter-op-${index}`}
          />
          <Tooltip label={t('campaignEditor.filter.remove')}>
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              onClick={onRemove}
              disabled={disabled}
              aria-label={t('campaignEditor.filter.remove')}
              data-testid={`filter-remove-${index}`}
            >
              <IconX size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
        <ValueInput row={row} index={index} values={values} disabled={disabled} onChange={onChange} />
        {!complete && row.column !== null ? (
          <Text size="xs" c="dimmed" data-testid={`filter-incomplete-${index}`}>
            {t('campaignEditor.filter.incomplete')}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

function ValueInput({
  row,
  index,
  values,
  disabled,
  onChange,
}: {
  row: FilterRow;
  index: number;
  values: ColumnValue[];
  disabled: boolean;
  onChange(changes: Partial<FilterRow>): void;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const direction = useTextDirection(row.op === 'in' ? row.values.join(' ') : row.value);
  const counts = useMemo(() => new Map(values.map((v) => [v.value, v.count])), [values]);
  const option = ({ option }: { option: { value: string } }) => {
    const n = counts.get(option.value);
    return (
      <Group justify="space-between" gap="md" wrap="nowrap" w="100%">
        <bdi>{option.value}</bdi>
        {n !== undefined ? (
          <Text size="xs" c="dimmed">
            {formatNumber(n, language)}
          </Text>
        ) : null}
      </Group>
    );
  };
  switch (row.op) {
    case 'equals':
    case 'contains':
      return (
        <Autocomplete
          label={t('campaignEditor.filter.value')}
          data={row.op === 'equals' ? values.map((v) => v.value) : []}
          value={row.value}
          onChange={(value) => onChange({ value })}
          disabled={disabled || row.column === null}
          renderOption={option}
          dir={direction}
          maxLength={500}
          data-testid={`filter-value-${index}`}
        />
      );
    case 'in':
      return (
        <TagsInput
          label={t('campaignEditor.filter.values')}
          placeholder={t('campaignEditor.filter.valuesPlaceholder')}
          data={values.map((v) => v.value)}
          value={row.values}
          onChange={(list) => onChange({ values: list })}
          disabled={disabled || row.column === null}
          renderOption={option}
          // A value may hold a comma ("Tehran, Iran"): Enter ends one.
          splitChars={[]}
          dir={direction}
          maxTags={1000}
          data-testid={`filter-values-${index}`}
        />
      );
    case 'between':
      return (
        <Stack gap={6}>
          <SegmentedControl
            size="xs"
            data={(['number', 'date'] as const).map((kind) => ({
              value: kind,
              label: t(`campaignEditor.filter.kind.${kind}`),
            }))}
            value={row.kind}
            // The ends written for one kind mean nothing for the other.
            onChange={(kind) => onChange({ kind: kind as FilterRow['kind'], from: null, to: null })}
            disabled={disabled}
            style={{ alignSelf: 'flex-start' }}
            data-testid={`filter-kind-${index}`}
          />
          {row.kind === 'number' ? (
            <Group gap="xs" grow>
              {(['from', 'to'] as const).map((end) => (
                <TextInput
                  key={end}
                  label={t(`campaignEditor.filter.${end}`)}
                  placeholder={t('campaignEditor.filter.open')}
                  value={row[end] ?? ''}
                  onChange={(event) => onChange({ [end]: event.currentTarget.value })}
                  disabled={disabled || row.column === null}
                  inputMode="decimal"
                  dir="ltr"
                  maxLength={100}
                  data-testid={`filter-${end}-${index}`}
                />
              ))}
            </Group>
          ) : (
            <Group gap="xs" align="flex-end">
              {(['from', 'to'] as const).map((end) => (
                <Group key={end} gap={2} align="flex-end" wrap="nowrap">
                  <DateField
                    label={t(`campaignEditor.filter.${end}`)}
                    value={dayOf(row[end])}
                    onChange={(day) => onChange({ [end]: textOf(day) })}
                    disabled={disabled || row.column === null}
                    testId={`filter-${end}-${index}`}
                    anyDay
                  />
                  {row[end] !== null ? (
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      size="lg"
                      onClick={() => onChange({ [end]: null })}
                      aria-label={t('campaignEditor.filter.clearDate')}
                      data-testid={`filter-${end}-clear-${index}`}
                    >
                      <IconX size={14} />
                    </ActionIcon>
                  ) : null}
                </Group>
              ))}
            </Group>
          )}
        </Stack>
      );
  }
}
