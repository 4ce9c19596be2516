// An amount, given in rials, shown in the unit the person chose (Settings → General: rials, the
// API's and the ledger's unit, or tomans, the everyday one) and the current language's digits.
// Every amount the window shows goes through here, or through useMoney for one inside a sentence.
// The number is isolated (<bdi>) so a minus sign stays with it inside right-to-left text.
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../stores/context';
import { useLanguage } from '../i18n/useLanguage';
import { formatAmount, type MoneyUnit } from '../lib/money';

/** The chosen unit, its name in the UI's language, and an amount as a sentence writes it. */
export function useMoney(): { unit: MoneyUnit; unitName: string; text: (rials: number) => string } {
  const { t } = useTranslation();
  const language = useLanguage();
  const unit = useStore(useStores().preferences, (p) => p.moneyUnit);
  const unitName = t(`common.${unit}`);
  // The number isolated left to right, so a minus sign stays with it in a Persian sentence.
  return { unit, unitName, text: (rials) => `\u2066${formatAmount(rials, unit, language)}\u2069 ${unitName}` };
}

/** `signed` shows a + on gains too (the ledger); the sign stays inside the isolated number. */
export function Money({ rials, signed = false }: { rials: number; signed?: boolean }) {
  const language = useLanguage();
  const { unit, unitName } = useMoney();
  const number = formatAmount(rials, unit, language);
  return (
    <span data-unit={unit}>
      <bdi dir="ltr">{signed && rials > 0 ? `+${number}` : number}</bdi> {unitName}
    </span>
  );
}
