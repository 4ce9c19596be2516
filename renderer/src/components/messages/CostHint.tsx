// Which final statuses cost money, in one sentence built from the lifecycle's refunding moves
// (shared/status-labels.ts finalCost) and the statuses' own labels, so it cannot drift from them.
import { useTranslation } from 'react-i18next';
import { FINAL_STATUSES } from '../../../../shared/lifecycle';
import { finalCost, type FinalCost } from '../../../../shared/status-labels';
import { statusLabel } from '../../lib/status';
import { useLanguage } from '../../i18n/useLanguage';

export function CostHint() {
  const { t } = useTranslation();
  const language = useLanguage();
  const labels = (cost: FinalCost) =>
    FINAL_STATUSES.filter((s) => finalCost(s) === cost)
      .map((s) => statusLabel(s, language))
      .join(language === 'fa' ? '، ' : ', ');
  return (
    <span data-testid="cost-hint">
      {t('messages.costHint', {
        charged: labels('charged'),
        refunded: labels('refunded'),
        depends: labels('depends'),
      })}
    </span>
  );
}
