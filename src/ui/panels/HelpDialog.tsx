/** The `?` overlay: keyboard shortcuts. */
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useKubeStore } from '../store/store';
import type { KubeState } from '../store/store';
import { setHelpOpen } from '../store/actions';

const selectHelpOpen = (s: KubeState) => s.helpOpen;

export const HelpDialog = memo(function HelpDialog() {
  const open = useKubeStore(selectHelpOpen);
  const { t } = useTranslation();
  if (!open) return null;
  const rows: [string, string][] = [
    ['Space', t('help.playPause')],
    ['.', t('help.step')],
    ['?', t('help.help')],
    ['t', t('help.tours')],
    ['n', t('help.tourNext')],
    ['Ctrl/⌘ + Enter', t('help.apply')],
    ['Esc', t('help.escape')],
    ['↑ ↓', t('help.history')],
  ];
  return (
    <div className="help-backdrop" onClick={() => setHelpOpen(false)}>
      <div
        className="help"
        role="dialog"
        aria-modal="true"
        aria-label={t('help.title')}
        data-testid="help"
        onClick={(e) => e.stopPropagation()}
      >
        <header className="pane-header">
          <h2>{t('help.title')}</h2>
          <span className="spacer" />
          <button type="button" className="mini" aria-label={t('help.close')} onClick={() => setHelpOpen(false)}>
            ✕
          </button>
        </header>
        <table className="shortcuts">
          <tbody>
            {rows.map(([k, v]) => (
              <tr key={k}>
                <td>
                  <kbd>{k}</kbd>
                </td>
                <td>{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
});
