// The current UI language, re-rendering on change (react-i18next drives it).
import { useTranslation } from 'react-i18next';
import { isLanguage, type Language } from '../lib/format';

export function useLanguage(): Language {
  const { i18n } = useTranslation();
  return isLanguage(i18n.language) ? i18n.language : 'en';
}
