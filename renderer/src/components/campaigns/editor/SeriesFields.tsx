// The "when" of a campaign that runs by itself: a repeat (every day, on days of the week, on a day
// of the Jalali or Gregorian month, at a time, until an optional day) or a date in a column of the
// included segments ("on the day" or N days before, at a time). Said back as one sentence, with the
// next occurrences the core computed.
import { Checkbox, Group, List, NumberInput, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { IconRepeat } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { useLanguage } from '../../../i18n/useLanguage';
import { zoneName } from '../../../lib/names';
import { ClockInput } from './ClockInput';
import { DateField } from './DateField';
import { useEditor } from './useEditor';
import { WEEKDAYS } from '../../../../../shared/campaigns';
import {
  dayOf,
  defaultTriggerColumn,
  seriesSentence,
  weekdayName,
  weekOrder,
  type Repeat,
  type Trigger,
} from './series';
import { wallTimeParts } from './when';
import { wallTimeAt } from './zonedTime';

const pad = (n: number) => String(n).padStart(2, '0');

/** `zone`: the editor's guess until the core's quote names the zone the series runs in (the account's). */
export function SeriesFields({ zone: guessed }: { zone: string }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { repeat, trigger, quote, update, ready } = useEditor(
    useShallow((s) => ({
      repeat: s.fields.repeat,
      trigger: s.fields.trigger,
      quote: s.quote,
      update: s.update,
      ready: s.status === 'ready' && s.created === null,
    })),
  );
  const zone = quote?.monthly?.time_zone ?? guessed;
  const sentence = seriesSentence({ repeat, trigger }, zoneName(zone, language), t, language);
  const monthly = quote?.monthly ?? null;
  const next = monthly?.next ?? [];
  return (
    <Stack gap="sm" data-testid="editor-series">
      {repeat ? <RepeatFields repeat={repeat} onChange={(next) => update({ repeat: next })} disabled={!ready} /> : null}
      {trigger ? (
        <TriggerFields
          trigger={trigger}
          columns={(quote?.columns ?? []).filter((c) => c !== 'PHONE_NUMBER')}
          onChange={(next) => update({ trigger: next })}
          disabled={!ready}
        />
      ) : null}
      {sentence ? (
        <Group gap={6} wrap="nowrap" align="start">
          <IconRepeat size={18} style={{ flexShrink: 0, marginTop: 2 }} />
          <Text size="sm" fw={500} data-testid="editor-series-sentence">
            {sentence}
          </Text>
        </Group>
      ) : null}
      {monthly ? (
        <Stack gap={2} data-testid="editor-series-next">
          <Text size="sm" c="dimmed">
            {t('campaignEditor.series.next')}
          </Text>
          {next.length === 0 ? (
            <Text size="sm">{t('campaignEditor.series.noNext')}</Text>
          ) : (
            <List size="sm" spacing={2}>
              {next.slice(0, 3).map((at) => (
                <List.Item key={at} data-testid="editor-series-next-item" data-at={at}>
                  {t('campaignEditor.when.dayAt', wallTimeParts(wallTimeAt(at, zone), language))}
                </List.Item>
              ))}
            </List>
          )}
        </Stack>
      ) : null}
    </Stack>
  );
}

function RepeatFields({
  repeat,
  onChange,
  disabled,
}: {
  repeat: Repeat;
  onChange(repeat: Repeat): void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const until = dayOf(repeat.until);
  return (
    <Stack gap="xs">
      <Group align="end" gap="sm">
        <Select
          label={t('campaignEditor.series.every')}
          data={(['daily', 'weekly', 'monthly'] as const).map((every) => ({
            value: every,
            label: t(`campaignEditor.series.${every}`),
          }))}
          value={repeat.every}
          onChange={(every) => {
            if (!every) return;
            const next = { ...repeat, every: every as Repeat['every'] };
            if (every === 'weekly' && next.weekdays.length === 0) next.weekdays = [weekOrder(language)[0]!];
            if (every === 'monthly' && !next.day) next.day = 1;
            onChange(next);
          }}
          allowDeselect={false}
          disabled={disabled}
          w={170}
          data-testid="editor-repeat-every"
        />
        <ClockInput
          label={t('campaignEditor.series.time')}
          value={repeat.time}
          onChange={(time) => time && onChange({ ...repeat, time })}
          disabled={disabled}
          testId="editor-repeat-time"
        />
        {repeat.every === 'monthly' ? (
          <>
            <NumberInput
              label={t('campaignEditor.series.day')}
              value={repeat.day ?? 1}
              min={1}
              max={31}
              clampBehavior="strict"
              allowDecimal={false}
              onChange={(day) => typeof day === 'number' && onChange({ ...repeat, day })}
              disabled={disabled}
              w={110}
              data-testid="editor-repeat-day"
            />
            <SegmentedControl
              value={repeat.calendar}
              onChange={(calendar) => onChange({ ...repeat, calendar: calendar as Repeat['calendar'] })}
              data={(['jalali', 'gregorian'] as const).map((calendar) => ({
                value: calendar,
                label: (
                  <span data-testid={`editor-repeat-calendar-${calendar}`}>
                    {t(`campaignEditor.series.${calendar}`)}
                  </span>
                ),
              }))}
              disabled={disabled}
            />
          </>
        ) : null}
      </Group>
      {repeat.every === 'weekly' ? (
        <Checkbox.Group
          label={t('campaignEditor.series.weekdays')}
          value={repeat.weekdays}
          onChange={(values) => onChange({ ...repeat, weekdays: WEEKDAYS.filter((d) => values.includes(d)) })}
        >
          <Group gap="md" mt={4}>
            {weekOrder(language).map((d) => (
              <Checkbox
                key={d}
                value={d}
                label={weekdayName(d, language)}
                disabled={disabled}
                data-testid={`editor-repeat-weekday-${d}`}
              />
            ))}
          </Group>
        </Checkbox.Group>
      ) : null}
      {repeat.every === 'monthly' && (repeat.day ?? 1) > 28 ? (
        <Text size="xs" c="dimmed">
          {t('campaignEditor.series.lastDayHint')}
        </Text>
      ) : null}
      <Group align="end" gap="xs">
        <DateField
          label={t('campaignEditor.series.until')}
          value={until}
          onChange={(day) => onChange({ ...repeat, until: `${day.year}-${pad(day.month)}-${pad(day.day)}` })}
          onClear={until ? () => onChange({ ...repeat, until: null }) : undefined}
          disabled={disabled}
          testId="editor-repeat-until"
        />
      </Group>
    </Stack>
  );
}

function TriggerFields({
  trigger,
  columns,
  onChange,
  disabled,
}: {
  trigger: Trigger;
  columns: string[];
  onChange(trigger: Trigger): void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  // Switched to before the segments' columns were known: the first date-like one, once they are.
  const fallback = trigger.column === '' ? defaultTriggerColumn(columns) : '';
  useEffect(() => {
    if (fallback !== '' && !disabled) onChange({ ...trigger, column: fallback });
  }, [fallback, disabled, onChange, trigger]);
  const options = [...new Set([...columns, ...(trigger.column ? [trigger.column] : [])])];
  return (
    <Stack gap="xs">
      <Group align="end" gap="sm">
        <Select
          label={t('campaignEditor.series.column')}
          data={options}
          value={trigger.column || null}
          onChange={(column) => column && onChange({ ...trigger, column })}
          placeholder={options.length === 0 ? t('campaignEditor.series.noColumns') : undefined}
          allowDeselect={false}
          searchable
          disabled={disabled || options.length === 0}
          w={220}
          data-testid="editor-trigger-column"
          renderOption={({ option }) => (
            <span data-testid={`editor-trigger-column-${option.value}`}>{option.label}</span>
          )}
        />
        <SegmentedControl
          value={trigger.days_before === 0 ? 'day' : 'before'}
          onChange={(mode) =>
            onChange({ ...trigger, days_before: mode === 'day' ? 0 : Math.max(1, trigger.days_before) })
          }
          data={[
            {
              value: 'day',
              label: <span data-testid="editor-trigger-on-day">{t('campaignEditor.series.onTheDay')}</span>,
            },
            {
              value: 'before',
              label: <span data-testid="editor-trigger-before">{t('campaignEditor.series.daysBefore')}</span>,
            },
          ]}
          disabled={disabled}
        />
        {trigger.days_before > 0 ? (
          <NumberInput
            label={t('campaignEditor.series.daysBeforeCount')}
            value={trigger.days_before}
            min={1}
            max={365}
            clampBehavior="strict"
            allowDecimal={false}
            onChange={(n) => typeof n === 'number' && onChange({ ...trigger, days_before: n })}
            disabled={disabled}
            w={90}
            data-testid="editor-trigger-days"
          />
        ) : null}
        <ClockInput
          label={t('campaignEditor.series.time')}
          value={trigger.time}
          onChange={(time) => time && onChange({ ...trigger, time })}
          disabled={disabled}
          testId="editor-trigger-time"
        />
      </Group>
      {options.length === 0 ? (
        <Text size="xs" c="dimmed">
          {t('campaignEditor.series.noColumns')}
        </Text>
      ) : null}
    </Stack>
  );
}
