// An amount in rials in the current language's digits. The number is isolated (<bdi>) so a minus
// sign stays with it inside right-to-left text. The spec's unit is rials, so the UI says rials
// everywhere, matching the API and the ledger.
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../lib/format';
import { useLanguage } from '../i18n/useLanguage';

/** `signed` shows a + on gains too (the ledger); the sign stays inside the isolated number. */
export function Money({ rials, signed = false }: { rials: number; signed?: boolean }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const number = formatNumber(rials, language);
  return (
    <span>
      <bdi dir="ltr">{signed && rials > 0 ? `+${number}` : number}</bdi> {t('common.rials')}
    </span>
  );
}
