/** Language, theme and help: the right end of the toolbar. */
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useKubeStore } from '../store/store';
import type { KubeState } from '../store/store';
import { setHelpOpen } from '../store/actions';
import { LANGUAGES, setLanguage, type Language } from '../i18n/i18n';
import { toggleTheme } from '../theme';
import { Icon } from '../Icon';

const selectTheme = (s: KubeState) => s.theme;

export const Preferences = memo(function Preferences() {
  const { t, i18n } = useTranslation();
  const theme = useKubeStore(selectTheme);
  const themeLabel = theme === 'dark' ? t('toolbar.themeLight') : t('toolbar.themeDark');
  return (
    <span className="prefs">
      <select
        data-testid="language"
        aria-label={t('toolbar.language')}
        title={t('toolbar.language')}
        value={i18n.language}
        onChange={(e) => setLanguage(e.target.value as Language)}
      >
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code}>
            {l.label}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="icon-button"
        data-testid="theme-toggle"
        data-theme={theme}
        aria-label={themeLabel}
        title={themeLabel}
        onClick={toggleTheme}
      >
        <Icon name={theme === 'dark' ? 'sun' : 'moon'} />
      </button>
      <button
        type="button"
        className="icon-button"
        data-testid="help-button"
        aria-label={t('toolbar.help')}
        title={`${t('toolbar.help')} (?)`}
        onClick={() => setHelpOpen(true)}
      >
        ?
      </button>
    </span>
  );
});
