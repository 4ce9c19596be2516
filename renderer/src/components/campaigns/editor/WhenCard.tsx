// When the campaign goes out: now, or a day and time in a time zone (stored as RFC 3339 with that
// zone's offset, and the zone, so the editor shows the choice back as picked); an optional send
// rate and quiet hours, with the core's estimate of when the last message goes out.
import { Alert, Group, Paper, SegmentedControl, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconClockHour4 } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { toAsciiDigits } from '../../../../../shared/digits';
import { digits, formatDuration } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';
import { ClockInput } from './ClockInput';
import { DateField } from './DateField';
import { useEditor } from './useEditor';
import { useNow } from './useNow';
import { SeriesFields } from './SeriesFields';
import { defaultTriggerColumn, modeOf, type Repeat, type Trigger } from './series';
import { defaultSendTime, instantParts, wallTimeParts } from './when';
import { isTimeZone, runtimeTimeZone } from '../../../../../shared/time-zone';
import {
  clockOf,
  COMMON_ZONES,
  formatOffset,
  instantOf,
  offsetAt,
  parseClock,
  toRfc3339,
  wallTimeOf,
  type WallTime,
} from './zonedTime';
import { zoneName } from '../../../lib/names';

/** A new repeat: every day at nine, in the calendar of the user's language. */
const defaultRepeat = (language: 'fa' | 'en'): Repeat => ({
  every: 'daily',
  time: '09:00',
  calendar: language === 'fa' ? 'jalali' : 'gregorian',
  weekdays: [],
  day: null,
  until: null,
});

/** A new date trigger: on the day at nine, on the first column that reads like a birthday. */
const defaultTrigger = (columns: readonly string[]): Trigger => ({
  column: defaultTriggerColumn(columns),
  days_before: 0,
  time: '09:00',
});

/** Messages per minute the core takes at most. */
const MAX_RATE = 1_000_000;

export function WhenCard() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { sendDatetime, timeZone, sendRate, quietHours, quote, update, ready, mode } = useEditor(
    useShallow((s) => ({
      mode: modeOf(s.fields),
      sendDatetime: s.fields.send_datetime,
      timeZone: s.fields.time_zone,
      sendRate: s.fields.send_rate,
      quietHours: s.fields.quiet_hours,
      quote: s.quote,
      update: s.update,
      ready: s.status === 'ready' && s.created === null,
    })),
  );
  const now = useNow();
  const zone = timeZone && isTimeZone(timeZone) ? timeZone : runtimeTimeZone();
  const wall = sendDatetime === null ? null : wallTimeOf(sendDatetime);
  const setWall = (next: WallTime, inZone = zone) =>
    update({ send_datetime: toRfc3339(next, inZone), time_zone: inZone });
  const past = wall !== null && instantOf(wall, zone) < now;
  const zones = [...new Set([runtimeTimeZone(), ...COMMON_ZONES, zone])].map((z) => ({
    value: z,
    label: `${zoneName(z, language)} (${digits(formatOffset(offsetAt(now, z)), language)})`,
  }));
  const last = quote?.estimated_last_message_at ?? null;
  const first = quote?.send_at ?? null;

  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={4}>{t('campaignEditor.when.title')}</Title>
        <SegmentedControl
          value={mode}
          onChange={(next) => {
            // A series starts from now; its time of day is its own, in the zone shown.
            const series = { send_datetime: null, time_zone: zone };
            if (next === 'once') update({ repeat: null, trigger: null });
            else if (next === 'repeat') update({ ...series, trigger: null, repeat: defaultRepeat(language) });
            else update({ ...series, repeat: null, trigger: defaultTrigger(quote?.columns ?? []) });
          }}
          disabled={!ready}
          data={(['once', 'repeat', 'trigger'] as const).map((value) => ({
            value,
            label: <span data-testid={`editor-mode-${value}`}>{t(`campaignEditor.series.${value}`)}</span>,
          }))}
          style={{ alignSelf: 'start' }}
        />
        {mode !== 'once' ? <SeriesFields zone={zone} /> : null}
        {mode === 'once' ? (
          <SegmentedControl
            value={wall === null ? 'now' : 'later'}
            onChange={(mode) => {
              if (mode === 'now') update({ send_datetime: null });
              else setWall(defaultSendTime(now, zone));
            }}
            disabled={!ready}
            data={[
              { value: 'now', label: <span data-testid="editor-when-now">{t('campaignEditor.when.now')}</span> },
              { value: 'later', label: <span data-testid="editor-when-later">{t('campaignEditor.when.later')}</span> },
            ]}
            style={{ alignSelf: 'start' }}
          />
        ) : null}
        {mode !== 'once' ? null : wall !== null ? (
          <Stack gap="xs">
            <Group align="start" gap="sm">
              <DateField value={wall} onChange={(day) => setWall({ ...wall, ...day })} disabled={!ready} />
              <ClockInput
                label={t('campaignEditor.when.time')}
                value={clockOf(wall)}
                onChange={(text) => {
                  const clock = parseClock(text);
                  if (clock) setWall({ ...wall, ...clock });
                }}
                disabled={!ready}
                testId="editor-time"
              />
              <Select
                label={t('campaignEditor.when.zone')}
                data={zones}
                value={zone}
                // The same wall time, read in the new zone.
                onChange={(next) => next && setWall(wall, next)}
                allowDeselect={false}
                searchable
                disabled={!ready}
                w={250}
                data-testid="editor-zone"
              />
            </Group>
            <Text size="sm" data-testid="editor-when-summary">
              {t('campaignEditor.when.at', { ...wallTimeParts(wall, language), zone: zoneName(zone, language) })}
            </Text>
            {past ? (
              <Alert color="orange" p="xs" data-testid="editor-when-past">
                {t('campaignEditor.when.past')}
              </Alert>
            ) : null}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            {t('campaignEditor.when.nowHint')}
          </Text>
        )}
        <Group align="start" gap="sm">
          <RateInput value={sendRate} onChange={(send_rate) => update({ send_rate })} disabled={!ready} />
          <QuietHours value={quietHours} onChange={(quiet_hours) => update({ quiet_hours })} disabled={!ready} />
        </Group>
        {last !== null && mode === 'once' ? (
          <Group gap={6} wrap="nowrap" data-testid="editor-last-message">
            <IconClockHour4 size={16} style={{ flexShrink: 0 }} />
            <Text size="sm">
              {t('campaignEditor.when.last', instantParts(last, language))}
              {first !== null && last - Math.max(first, now) >= 60_000
                ? ` ${t('campaignEditor.when.lastAfter', { duration: formatDuration((last - Math.max(first, now)) / 1000, language) })}`
                : ''}
            </Text>
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** Messages per minute, in any digits; empty: as fast as the service goes. */
function RateInput({
  value,
  onChange,
  disabled,
}: {
  value: number | null;
  onChange(value: number | null): void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <TextInput
      label={t('campaignEditor.when.rate')}
      placeholder={t('campaignEditor.when.ratePlaceholder')}
      value={value === null ? '' : digits(value, language)}
      onChange={(event) => {
        // Only digits stay (Persian and Arabic ones read as Latin); 0 is no rate.
        const typed = toAsciiDigits(event.currentTarget.value)
          .replace(/[^0-9]/g, '')
          .replace(/^0+/, '');
        onChange(typed === '' ? null : Math.min(Number(typed.slice(0, 7)), MAX_RATE));
      }}
      inputMode="numeric"
      dir="ltr"
      w={200}
      disabled={disabled}
      data-testid="editor-rate"
    />
  );
}

/** "HH:MM-HH:MM" from two clock times; both or none. */
function QuietHours({
  value,
  onChange,
  disabled,
}: {
  value: string | null;
  onChange(value: string | null): void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const [stored = '', storedTo = ''] = (value ?? '').split('-');
  // One end typed and the other not yet: kept here, the draft has no quiet hours until both are.
  const [half, setHalf] = useState<{ from: string; to: string } | null>(null);
  const from = half?.from ?? stored;
  const to = half?.to ?? storedTo;
  const set = (next: { from: string; to: string }) => {
    if (next.from !== '' && next.to !== '') {
      setHalf(null);
      onChange(`${next.from}-${next.to}`);
    } else {
      setHalf(next.from === '' && next.to === '' ? null : next);
      onChange(null);
    }
  };
  return (
    <Stack gap={4}>
      <Group gap="xs" align="end">
        <ClockInput
          label={t('campaignEditor.when.quietFrom')}
          value={from}
          onChange={(text) => set({ from: text, to })}
          disabled={disabled}
          testId="editor-quiet-from"
          placeholder="22:00"
          w={100}
        />
        <ClockInput
          label={t('campaignEditor.when.quietTo')}
          value={to}
          onChange={(text) => set({ from, to: text })}
          disabled={disabled}
          testId="editor-quiet-to"
          placeholder="08:00"
          w={100}
        />
      </Group>
      <Text size="xs" c={half ? 'orange.8' : 'dimmed'} maw={260}>
        {half ? t('campaignEditor.when.quietBoth') : t('campaignEditor.when.quietHint')}
      </Text>
    </Stack>
  );
}
