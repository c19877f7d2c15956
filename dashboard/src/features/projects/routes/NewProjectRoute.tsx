import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/app/paths';
import { Alert } from '@/components/Alert';
import { FormField } from '@/components/FormField';
import { toast } from '@/components/toast';
import { ApiError, errorMessage } from '@/lib/api-client';
import { Form, FormActions } from '@/components/Form';
import { errorText, setServerError } from '@/lib/forms';
import { newProjectSchema } from '@/lib/validation';
import { useCreateProject } from '@/features/projects/api/create-project';
import { useTemplates } from '@/features/projects/api/get-templates';
import { useCreateFromTemplate } from '@/lib/projects/use-template';

/**
 * "/project/new": a name, then a blank project or one of the themes, each shown by a large picture
 * of its home page, with a link to its full preview (every page, desktop and phone).
 */
export function NewProjectRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const templates = useTemplates();
  const create = useCreateProject();
  const fromTemplate = useCreateFromTemplate();
  const [templateId, setTemplateId] = useState<number | null>(null);
  const form = useForm<{ name: string }>({
    resolver: zodResolver(newProjectSchema),
    defaultValues: { name: '' },
  });
  const nameError = errorText(t, form.formState.errors.name);

  const busy = create.isPending || fromTemplate.isPending;
  const published = (templates.data ?? []).filter((template) => template.is_published === '1');

  const submit = (values: { name: string }) => {
    const { name } = newProjectSchema.parse(values);
    const open = (project: { id: number }) => void navigate(paths.project.build({ projectId: project.id }));
    const onError = (error: Error) => setServerError(form, error, ['name']);
    if (templateId === null) {
      create.mutate({ name }, { onSuccess: open, onError });
    } else {
      fromTemplate.mutate(
        { templateId, name },
        {
          onSuccess: open,
          onError: (error) => {
            if (!setServerError(form, error, ['name'])) toast.error(t('common.error'));
          },
        },
      );
    }
  };
  const createFailedElsewhere =
    create.isError && !(create.error instanceof ApiError && create.error.field === 'name');

  return (
    <section className="page">
      <div className="page-header">
        <h1>{t('newProject.title')}</h1>
      </div>
      <Form form={form} onValid={submit} className="card form" testId="new-project-form">
        {createFailedElsewhere && <Alert>{errorMessage(create.error)}</Alert>}
        <FormField label={t('newProject.name')} id="project-name" error={nameError}>
          {(control) => <input {...control} {...form.register('name')} data-testid="project-name-input" />}
        </FormField>

        <h2 className="section-title">{t('newProject.startFrom')}</h2>
        <div className="template-grid" role="radiogroup" aria-label={t('newProject.startFrom')}>
          <button
            type="button"
            role="radio"
            aria-checked={templateId === null}
            className={`template-card${templateId === null ? ' selected' : ''}`}
            onClick={() => setTemplateId(null)}
            data-testid="template-blank"
          >
            <div className="template-thumb blank">+</div>
            <strong>{t('newProject.blank')}</strong>
            <span className="muted small">{t('newProject.blankDescription')}</span>
          </button>
          {published.map((template) => (
            <div key={template.id} className="template-option" data-testid="template-option">
              <button
                type="button"
                role="radio"
                aria-checked={templateId === template.id}
                className={`template-card${templateId === template.id ? ' selected' : ''}`}
                onClick={() => setTemplateId(template.id)}
                data-testid="template-card"
              >
                <div className="template-thumb">
                  {template.thumbnail ? (
                    <img src={template.thumbnail} alt="" loading="lazy" />
                  ) : (
                    // A live, scaled-down look at the theme's home page. sandbox="" runs no
                    // scripts, and the server also sends it with a sandboxing CSP.
                    <iframe
                      title={template.name}
                      src={`/api/templates/${template.id}/preview`}
                      sandbox=""
                      loading="lazy"
                      tabIndex={-1}
                      aria-hidden="true"
                    />
                  )}
                </div>
                <strong>{template.name}</strong>
                <span className="badge badge-muted">{template.category}</span>
                <span className="muted small">{template.description}</span>
              </button>
              {/* Every page of the theme, full size, before choosing it (read-only). */}
              <Link
                to={paths.template.build({ templateId: template.id })}
                className="template-preview-link small"
                aria-label={t('newProject.previewLabel', { name: template.name })}
                data-testid="template-preview-link"
              >
                {t('newProject.preview')} →
              </Link>
            </div>
          ))}
        </div>
        {templates.isError && <Alert kind="info">{errorMessage(templates.error)}</Alert>}

        <FormActions isDisabled={busy} testId="create-project-submit">
          {t('newProject.create')}
        </FormActions>
      </Form>
    </section>
  );
}
