/** The toolbar's "examples" button: opens the gallery. */
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { setGalleryOpen } from './gallery-state';

export const ExamplesButton = memo(function ExamplesButton() {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      data-testid="examples"
      title={t('gallery.buttonTitle')}
      aria-haspopup="dialog"
      onClick={() => setGalleryOpen(true)}
    >
      {t('gallery.button')}
    </button>
  );
});
