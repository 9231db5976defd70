/**
 * Hangul for machines without a CJK font: Noto Sans KR's Korean subset (SIL Open Font License
 * 1.1, from the @fontsource/noto-sans-kr package), shipped as two of the app's own woff2 assets
 * (regular 400, bold 700, ~0.55 MB each) and registered with the FontFace API only when Korean
 * is chosen (i18n.ts imports this module lazily): nothing loads from the network, and English
 * sessions never fetch it. The faces' unicode-range is Hangul and CJK punctuation only, so the
 * Latin text keeps the system font; app.css adds {@link HANGUL_FAMILY} to its font stacks once
 * `<html data-hangul-font=loaded>` (a changed stack makes Chromium shape again the text it drew
 * as tofu before the faces existed).
 */
import regular from '@fontsource/noto-sans-kr/files/noto-sans-kr-korean-400-normal.woff2?url';
import bold from '@fontsource/noto-sans-kr/files/noto-sans-kr-korean-700-normal.woff2?url';

/** The family name app.css's font stacks carry (absent until {@link loadKoreanFont} ran). */
export const HANGUL_FAMILY = 'kube-relay Hangul';

/** Hangul Jamo, CJK punctuation, compatibility Jamo, Jamo extensions, syllables, half/full-width forms. */
const HANGUL_RANGE = 'U+1100-11FF, U+3000-303F, U+3130-318F, U+A960-A97F, U+AC00-D7AF, U+D7B0-D7FF, U+FF00-FFEF';

let loading: Promise<FontFace[]> | null = null;

/**
 * Adds the two faces to `document.fonts` (once) and waits for both to load; resolves with
 * them (status 'loaded'). Rejects when a file cannot be read (the faces stay registered; the
 * browser falls back to its own fonts).
 */
export function loadKoreanFont(): Promise<FontFace[]> {
  if (!loading) {
    const faces = [
      new FontFace(HANGUL_FAMILY, `url(${regular}) format('woff2')`, { weight: '100 599', unicodeRange: HANGUL_RANGE, display: 'swap' }),
      new FontFace(HANGUL_FAMILY, `url(${bold}) format('woff2')`, { weight: '600 900', unicodeRange: HANGUL_RANGE, display: 'swap' }),
    ];
    for (const f of faces) document.fonts.add(f);
    loading = Promise.all(faces.map((f) => f.load()));
  }
  return loading;
}
