import { useTranslation } from 'react-i18next';
import { paths } from '@/app/paths';
import { ButtonLink } from '@/components/ButtonLink';

const STEPS = ['template', 'name', 'publish'] as const;

/**
 * The project list of an owner who has none yet: the first step. It says what making a site
 * takes (a template, the business's name and colours, publishing) and leads, with one button,
 * to the new-project screen, whose template gallery is that first step.
 */
export function EmptyProjects() {
  const { t } = useTranslation();
  return (
    <section
      className="empty card projects-empty"
      data-testid="projects-empty"
      aria-labelledby="projects-empty-title"
    >
      <h2 id="projects-empty-title">{t('projects.emptyState.title')}</h2>
      <p className="muted">{t('projects.emptyState.intro')}</p>
      <ol className="projects-empty-steps">
        {STEPS.map((step, index) => (
          <li key={step} data-testid="projects-empty-step">
            <span className="projects-empty-number" aria-hidden="true">
              {index + 1}
            </span>
            <span>
              <strong>{t(`projects.emptyState.steps.${step}.title`)}</strong>
              <span className="muted small">{t(`projects.emptyState.steps.${step}.text`)}</span>
            </span>
          </li>
        ))}
      </ol>
      <ButtonLink to={paths.projectNew.build()} variant="primary" testId="projects-empty-cta">
        {t('projects.emptyState.cta')}
      </ButtonLink>
    </section>
  );
}
