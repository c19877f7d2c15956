import { useTranslation } from 'react-i18next';
import { paths } from '@/app/paths';
import { ButtonLink } from './ButtonLink';

/** The "not found" screen: an unknown address, or an id that names nothing (the theme preview). */
export function NotFound() {
  const { t } = useTranslation();
  return (
    <div className="card notice" data-testid="not-found">
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.body')}</p>
      <ButtonLink to={paths.home.build()} variant="primary">
        {t('notFound.home')}
      </ButtonLink>
    </div>
  );
}
