// A refusal of the core as one sentence in the UI's language (faults.ts), numbers in its digits.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format';
import { useLanguage } from '../../../i18n/useLanguage';
import { faultText, type Fault } from './faults';

export function useFaultText(): (fault: Fault) => string {
  const { t } = useTranslation();
  const language = useLanguage();
  return useCallback(
    (fault: Fault) => {
      const { key, values = {} } = faultText(fault, language);
      // Said as the service says it: no sentence of ours around it.
      if (key === 'other') return String(values.text ?? '');
      const shown = Object.fromEntries(
        Object.entries(values).map(([name, value]) => [
          name,
          typeof value === 'number' ? formatNumber(value, language) : value,
        ]),
      );
      return t(`campaignEditor.faults.${key}`, shown);
    },
    [t, language],
  );
}
