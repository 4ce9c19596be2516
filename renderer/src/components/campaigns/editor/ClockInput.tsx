// A clock time (HH:MM, 24 hours) typed in any digits: Persian and Arabic digits are read as Latin
// ones and shown back in the language's own. Native time inputs follow the system's locale (AM/PM,
// Latin digits), which a Persian screen should not.
import { TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toAsciiDigits } from '../../../../../shared/digits';
import { digits } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';
import { clockOf, parseClock } from './zonedTime';

/** "930" or "9:30" or "۰۹:۳۰" as "09:30"; null when it is no clock time. */
export function readClock(text: string): string | null {
  const ascii = toAsciiDigits(text)
    .trim()
    .replace(/[٫.\s]/g, ':');
  const colon = /^[0-9]{3,4}$/.test(ascii) ? `${ascii.slice(0, -2)}:${ascii.slice(-2)}` : ascii;
  const whole = /^[0-9]{1,2}$/.test(colon) ? `${colon}:00` : colon;
  const clock = parseClock(whole);
  return clock ? clockOf(clock) : null;
}

export function ClockInput({
  label,
  value,
  onChange,
  disabled,
  testId,
  placeholder = '10:00',
  w = 110,
}: {
  label: string;
  /** "HH:MM", or '' for none. */
  value: string;
  /** A valid "HH:MM", or '' when cleared. */
  onChange(value: string): void;
  disabled?: boolean;
  testId: string;
  /** An example time (Latin digits; shown in the language's). */
  placeholder?: string;
  w?: number;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const [text, setText] = useState<string | null>(null);
  const [focused, setFocused] = useState(false);
  // While typing, the text as typed; otherwise the value as stored.
  const shown = text ?? value;
  // Said once the field is left, not at each keystroke of an unfinished time.
  const invalid = !focused && text !== null && text.trim() !== '' && readClock(text) === null;
  return (
    <TextInput
      label={label}
      placeholder={digits(placeholder, language)}
      value={digits(shown, language)}
      onChange={(event) => {
        const typed = toAsciiDigits(event.currentTarget.value)
          .replace(/[^0-9:]/g, '')
          .slice(0, 5);
        setText(typed);
        if (typed.trim() === '') onChange('');
        else {
          const clock = /^[0-9]{1,2}:[0-9]{2}$/.test(typed) ? readClock(typed) : null;
          if (clock) onChange(clock);
        }
      }}
      onFocus={() => setFocused(true)}
      onBlur={() => {
        setFocused(false);
        if (text === null) return;
        const clock = readClock(text);
        if (clock) onChange(clock);
        // A finished entry shows as stored; a wrong one stays to be fixed.
        if (clock || text.trim() === '') setText(null);
      }}
      error={invalid ? t('campaignEditor.when.clockInvalid') : null}
      disabled={disabled}
      inputMode="numeric"
      dir="ltr"
      w={w}
      data-testid={testId}
    />
  );
}
