import { useTranslation } from 'react-i18next';
import { paths } from '@/app/paths';
import { ButtonLink } from '@/components/ButtonLink';

/**
 * The editor is made for a laptop or larger: on a narrow screen (a phone) the stylesheet hides
 * the top bar and the three columns and shows this note instead, with the way back to the
 * project, where what an owner does on the go (messages, records, publishing) works at 390 px.
 */
export function SmallScreenNotice({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  return (
    <div className="editor-small-screen" role="note" data-testid="editor-small-screen">
      <h2>{t('editor.smallScreen.title')}</h2>
      <p>{t('editor.smallScreen.message')}</p>
      <ButtonLink to={paths.project.build({ projectId })} variant="primary" testId="editor-small-screen-back">
        {t('editor.smallScreen.back')}
      </ButtonLink>
    </div>
  );
}
