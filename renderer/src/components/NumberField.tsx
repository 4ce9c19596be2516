// A number as a shop owner types it: Persian (۰-۹) and Arabic-Indic (٠-٩) digits as well as ASCII,
// thousands separators of any script, typed or pasted; shown in the UI's digits (Persian in
// Persian), grouped once the field is left. Out-of-range values are said next to the field, never
// clamped or dropped in silence, so the form that owns the value can refuse it with a message.
import { TextInput, type TextInputProps } from '@mantine/core';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toAsciiDigits } from '../../../shared/digits';
import { digits, formatNumber } from '../lib/format';
import { useLanguage } from '../i18n/useLanguage';

export interface NumberFieldProps extends Omit<TextInputProps, 'value' | 'onChange' | 'type' | 'min' | 'max'> {
  /** '' while the field is empty. */
  value: number | '';
  onChange(value: number | ''): void;
  min?: number;
  max?: number;
  allowDecimal?: boolean;
  /** Group thousands when the field is not being edited (default true). */
  thousandSeparator?: boolean;
  'data-testid'?: string;
}

/** Separators people type or paste between groups of digits. */
const GROUPING = /[,\u066c\u060c\s'_]/g;

/** ASCII digits, '-' and '.' (the Arabic decimal separator too) of what was typed; other characters dropped. */
export function numberText(typed: string, allowDecimal: boolean): string {
  const ascii = toAsciiDigits(typed)
    .replace(/\u066b/g, '.')
    .replace(GROUPING, '');
  let out = '';
  for (const ch of ascii) {
    if (ch >= '0' && ch <= '9') out += ch;
    else if ((ch === '-' || ch === '\u2212') && out === '') out += '-';
    else if (ch === '.' && allowDecimal && !out.includes('.')) out += '.';
  }
  return out;
}

/** The number of a field's text, or '' when it holds none yet ('', '-', '.'). */
export function parseNumberText(text: string): number | '' {
  if (!/\d/.test(text)) return '';
  const value = Number(text);
  return Number.isFinite(value) ? value : '';
}

export function NumberField({
  value,
  onChange,
  min,
  max = Number.MAX_SAFE_INTEGER,
  allowDecimal = false,
  thousandSeparator = true,
  error,
  onFocus,
  onBlur,
  ...rest
}: NumberFieldProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const [editing, setEditing] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const caret = useRef<number | null>(null);
  /** The whole grouped text was selected when the field was entered (a tab, a select-all). */
  const selectAll = useRef(false);

  const local = (text: string) => digits(text, language).replace('.', language === 'fa' ? '\u066b' : '.');
  const shown =
    editing !== null
      ? local(editing)
      : value === ''
        ? ''
        : thousandSeparator
          ? formatNumber(value, language, allowDecimal ? 6 : 0)
          : local(String(value));

  // Digits are replaced one for one, but dropped characters move the caret: put it back. Entering
  // the field ungroups its text; a selection of all of it stays all of it, so typing replaces it.
  useLayoutEffect(() => {
    const field = input.current;
    if (!field || document.activeElement !== field) return;
    if (selectAll.current) {
      field.setSelectionRange(0, field.value.length);
      selectAll.current = false;
    } else if (caret.current !== null) {
      field.setSelectionRange(caret.current, caret.current);
      caret.current = null;
    }
  });

  const outOfRange =
    value === ''
      ? null
      : min !== undefined && value < min
        ? t('common.numberAtLeast', { n: formatNumber(min, language) })
        : value > max
          ? t('common.numberAtMost', { n: formatNumber(max, language) })
          : null;

  return (
    <TextInput
      {...rest}
      ref={input}
      inputMode={allowDecimal ? 'decimal' : 'numeric'}
      // A number reads left to right in either language ("-5", not "5-"), aligned with the form's side.
      dir="ltr"
      styles={{ input: { textAlign: language === 'fa' ? 'right' : 'left' } }}
      value={shown}
      error={error ?? outOfRange}
      onFocus={(event) => {
        const field = event.currentTarget;
        const grouped = field.value;
        const wholeSelected = () =>
          grouped.length > 0 && field.selectionStart === 0 && field.selectionEnd === grouped.length;
        selectAll.current = wholeSelected();
        // The browser puts a field's selection in place only after its focus event (a Tab selects
        // all; a script's select() then focus() restores its own): read it again just after, before
        // the ungrouped text replaces the grouped one, or typing would add to the text, not replace it.
        queueMicrotask(() => {
          if (field.value === grouped && wholeSelected()) selectAll.current = true;
        });
        setEditing(value === '' ? '' : String(value));
        onFocus?.(event);
      }}
      onBlur={(event) => {
        setEditing(null);
        onBlur?.(event);
      }}
      onChange={(event) => {
        const typed = event.currentTarget.value;
        const text = numberText(typed, allowDecimal);
        const at = event.currentTarget.selectionStart;
        if (at !== null) caret.current = numberText(typed.slice(0, at), allowDecimal).length;
        setEditing(text);
        onChange(parseNumberText(text));
      }}
    />
  );
}
