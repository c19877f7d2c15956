import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/app/paths';

/** The "not found" screen: an unknown address, or an id that names nothing (the theme preview). */
export function NotFound() {
  const { t } = useTranslation();
  return (
    <div className="card notice" data-testid="not-found">
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.body')}</p>
      <Link to={paths.home.build()} className="button button-primary">
        {t('notFound.home')}
      </Link>
    </div>
  );
}
