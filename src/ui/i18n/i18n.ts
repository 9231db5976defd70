/**
 * i18next for the UI chrome (en, ko), bundled resources only: nothing loads from the network.
 * The choice is remembered in localStorage; the <html lang> follows it.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import { ko } from './ko';

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'ko', label: '한국어' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

const STORAGE_KEY = 'kube-relay.language';

function storedLanguage(): Language {
  try {
    const v = localStorage.getItem(STORAGE_KEY);
    if (v === 'en' || v === 'ko') return v;
  } catch {
    // storage unavailable (private mode): default
  }
  return 'en';
}

void i18next.use(initReactI18next).init({
  resources: { en: { translation: en }, ko: { translation: ko } },
  lng: storedLanguage(),
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});
document.documentElement.lang = i18next.language;

export function setLanguage(lng: Language): void {
  void i18next.changeLanguage(lng);
  document.documentElement.lang = lng;
  try {
    localStorage.setItem(STORAGE_KEY, lng);
  } catch {
    // not remembered
  }
}

export { i18next };
