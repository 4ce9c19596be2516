// i18next set up with both languages bundled (the app works offline). `applyLanguage` is the one
// place that switches language: translations, <html lang dir>, and the date/digit formatting that
// follows i18n.language.
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import { fa } from './fa';
import { directionOf, type Language } from '../lib/format';

export const resources = { en: { translation: en }, fa: { translation: fa } } as const;

export const i18n = i18next.createInstance();

export function initI18n(language: Language): typeof i18n {
  void i18n.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  setDocumentLanguage(language);
  return i18n;
}

export function applyLanguage(language: Language): void {
  void i18n.changeLanguage(language);
  setDocumentLanguage(language);
}

function setDocumentLanguage(language: Language): void {
  document.documentElement.lang = language;
  document.documentElement.dir = directionOf(language);
  // The window's title (taskbar, tab) in the language too.
  document.title = resources[language].translation.app.name;
}
