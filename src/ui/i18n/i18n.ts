/**
 * i18next for the UI chrome (en, ko), bundled resources only: nothing loads from the network.
 * The choice is remembered in localStorage; the <html lang> follows it. Korean brings its own
 * font (korean-font.ts), loaded only when chosen.
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

const stored = storedLanguage();
void i18next.use(initReactI18next).init({
  resources: { en: { translation: en }, ko: { translation: ko } },
  // Korean text drawn before its font exists stays tofu in Chromium: Korean only once the font is in
  lng: stored === 'ko' ? 'en' : stored,
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});
document.documentElement.lang = i18next.language;

/**
 * Loads the bundled Hangul font (korean-font.ts, a lazy chunk and two woff2 assets of the app)
 * the first time Korean is chosen; `data-hangul-font` on <html> reads `loading`, `loaded` or
 * `failed` (tests). Resolves when it has loaded or failed.
 */
export async function loadHangulFont(): Promise<void> {
  const root = document.documentElement;
  if (root.dataset.hangulFont === 'loaded' || root.dataset.hangulFont === 'failed') return;
  root.dataset.hangulFont = 'loading';
  try {
    const { loadKoreanFont } = await import('./korean-font');
    await loadKoreanFont();
    root.dataset.hangulFont = 'loaded';
  } catch {
    root.dataset.hangulFont = 'failed';
  }
}

/** The latest language asked for (a Korean switch waits for its font; a later choice wins). */
let wanted: Language = stored;

/**
 * Switches the UI language and remembers it. Korean first loads its font (Chromium does not
 * re-shape Hangul it already drew as tofu), then switches.
 */
export function setLanguage(lng: Language): void {
  wanted = lng;
  try {
    localStorage.setItem(STORAGE_KEY, lng);
  } catch {
    // not remembered
  }
  const apply = () => {
    if (wanted !== lng) return;
    void i18next.changeLanguage(lng);
    document.documentElement.lang = lng;
  };
  if (lng === 'ko') void loadHangulFont().then(apply);
  else apply();
}

if (stored === 'ko') setLanguage('ko');

export { i18next };
