// A day picked in the user's calendar: Jalali (Persian names and digits, right to left) in
// Persian, Gregorian in English. The button shows the day back the same way. For the send day,
// days before today cannot be picked (a filter's dates may be any day); each day carries its
// Gregorian date (data-date) for tests that click one.
import { Button, CloseButton, Group, Input, Popover } from '@mantine/core';
import { IconCalendar } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DayPicker, type DayButtonProps } from 'react-day-picker';
import { DayPicker as JalaliDayPicker } from 'react-day-picker/persian';
import 'react-day-picker/style.css';
import { useLanguage } from '../../../i18n/useLanguage';
import { formatDay } from './when';
import type { WallTime } from './zonedTime';

export type Day = Pick<WallTime, 'year' | 'month' | 'day'>;

const pad = (n: number) => String(n).padStart(2, '0');

function DayButton({ day, modifiers: _modifiers, ...props }: DayButtonProps) {
  const date = day.date;
  return <button {...props} data-date={`${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`} />;
}

export function DateField({
  value,
  onChange,
  disabled,
  label,
  onClear,
  testId = 'editor-date',
  anyDay = false,
}: {
  value: Day | null;
  onChange(day: Day): void;
  disabled?: boolean;
  /** Default: the send day's label. */
  label?: string;
  /** Offered as a ✕ beside the day when given (an optional day). */
  onClear?: () => void;
  /** The button's test id; the calendar's is `${testId}-picker`. */
  testId?: string;
  /** Days before today may be picked too. */
  anyDay?: boolean;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const [opened, setOpened] = useState(false);
  // The picker works on the browser's local days; only the day's numbers are taken from it.
  const selected = value ? new Date(value.year, value.month - 1, value.day) : undefined;
  const today = new Date();
  today.setHours(0, 0, 0, 0);
  const pick = (date: Date | undefined) => {
    // Clicking the chosen day again picks it again (and closes), as people expect.
    if (date) onChange({ year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() });
    setOpened(false);
  };
  const common = {
    mode: 'single' as const,
    required: true as const,
    selected,
    onSelect: pick,
    defaultMonth: selected ?? today,
    disabled: anyDay ? undefined : { before: today },
    // A day far from today (a birth date) is reached by month and year lists.
    ...(anyDay
      ? { captionLayout: 'dropdown' as const, startMonth: new Date(1900, 0), endMonth: new Date(2100, 11) }
      : {}),
    components: { DayButton },
    // The app's teal instead of the picker's blue, and a font that has Persian digits.
    style: {
      '--rdp-accent-color': 'var(--mantine-color-teal-7)',
      '--rdp-accent-background-color': 'var(--mantine-color-teal-0)',
      '--rdp-day-height': '38px',
      '--rdp-day-width': '38px',
      '--rdp-day_button-height': '36px',
      '--rdp-day_button-width': '36px',
      fontFamily: 'inherit',
    } as React.CSSProperties,
  };
  return (
    <Input.Wrapper label={label ?? t('campaignEditor.when.date')}>
      <Group gap={4} wrap="nowrap">
        {/* Focus moves into the calendar (arrow keys pick a day) and Escape closes it. */}
        <Popover
          opened={opened}
          onChange={setOpened}
          onClose={() => setOpened(false)}
          position="bottom-start"
          shadow="md"
          trapFocus
          returnFocus
          withinPortal
        >
          <Popover.Target>
            <Button
              variant="default"
              display="block"
              leftSection={<IconCalendar size={16} />}
              onClick={() => setOpened((o) => !o)}
              disabled={disabled}
              data-testid={testId}
              data-value={value ? `${value.year}-${pad(value.month)}-${pad(value.day)}` : ''}
            >
              {value ? formatDay(value, language) : t('campaignEditor.when.pickDate')}
            </Button>
          </Popover.Target>
          <Popover.Dropdown data-testid={`${testId}-picker`}>
            {language === 'fa' ? <JalaliDayPicker {...common} /> : <DayPicker {...common} />}
          </Popover.Dropdown>
        </Popover>
        {onClear ? (
          <CloseButton
            aria-label={t('campaignEditor.series.noEnd')}
            onClick={onClear}
            disabled={disabled}
            data-testid={`${testId}-clear`}
          />
        ) : null}
      </Group>
    </Input.Wrapper>
  );
}
