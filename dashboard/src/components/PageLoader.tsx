import { useTranslation } from 'react-i18next';

export function PageLoader() {
  const { t } = useTranslation();
  return (
    <div className="page-loader" aria-busy="true">
      <span className="spinner" /> {t('common.loading')}
    </div>
  );
}
