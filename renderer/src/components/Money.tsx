// An amount in rials in the current language's digits. The number is isolated (<bdi>) so a minus
// sign stays with it inside right-to-left text. The spec's unit is rials, so the UI says rials
// everywhere, matching the API and the ledger.
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../lib/format';
import { useLanguage } from '../i18n/useLanguage';

export function Money({ rials }: { rials: number }) {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <span>
      <bdi dir="ltr">{formatNumber(rials, language)}</bdi> {t('common.rials')}
    </span>
  );
}
