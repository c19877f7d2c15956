import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { links, paths } from '../../../app/paths';
import { Alert } from '../../../components/Alert';
import { Field } from '../../../components/Field';
import { PageLoader } from '../../../components/PageLoader';
import { toast } from '../../../components/toast-store';
import { errorMessage } from '../../../lib/api-client';
import type { Page } from '../../../lib/types';
import { normalizePageSlug } from '../../../lib/validation';
import { usePage } from '../api/get-page';
import { useUpdatePage } from '../api/update-page';

function PageForm({ page }: { page: Page }) {
  const { t } = useTranslation();
  const update = useUpdatePage();
  const isHome = page.slug === '/';
  const [name, setName] = useState(page.name);
  const [slug, setSlug] = useState(page.slug);
  const [description, setDescription] = useState(page.description ?? '');
  const [nameError, setNameError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setNameError(t('validation.pageNameRequired'));
      return;
    }
    setNameError(undefined);
    const normalized = isHome ? '/' : normalizePageSlug(slug);
    setSlug(normalized);
    update.mutate(
      { id: page.id, name: name.trim(), slug: normalized, description },
      { onSuccess: () => toast.success(t('pageSettings.saved')) },
    );
  };

  return (
    <section className="page" data-testid="page-settings">
      <nav className="breadcrumbs">
        <Link to={paths.home}>{t('projects.title')}</Link> / <Link to={links.project(page.project_id)}>{t('pageSettings.project')}</Link> /{' '}
        <span>{page.name}</span>
      </nav>
      <div className="page-header">
        <h1>{t('pageSettings.title')}</h1>
      </div>
      <Alert kind="info">{t('pageSettings.editorLater')}</Alert>
      <form className="card form" onSubmit={submit} noValidate>
        {update.isError && <Alert>{errorMessage(update.error)}</Alert>}
        <Field label={t('pageSettings.name')} htmlFor="page-name" error={nameError}>
          <input id="page-name" value={name} onChange={(event) => setName(event.target.value)} />
        </Field>
        <Field label={t('pageSettings.slug')} htmlFor="page-slug" hint={page.table_id !== null ? t('pageSettings.collectionHint') : undefined}>
          <input
            id="page-slug"
            value={slug}
            disabled={isHome}
            onChange={(event) => setSlug(event.target.value)}
            onBlur={() => setSlug(isHome ? '/' : normalizePageSlug(slug))}
          />
        </Field>
        <Field label={t('pageSettings.description')} htmlFor="page-description">
          <textarea id="page-description" rows={3} value={description} onChange={(event) => setDescription(event.target.value)} />
        </Field>
        <div className="form-actions">
          <Link to={links.project(page.project_id)} className="button">
            {t('common.back')}
          </Link>
          <button type="submit" className="button button-primary" disabled={update.isPending}>
            {t('common.save')}
          </button>
        </div>
      </form>
    </section>
  );
}

/** "/project/{project_id}/{page_id}": page settings until the editor lands. Load failure goes to "/". */
export function PageSettingsRoute() {
  const params = useParams();
  const navigate = useNavigate();
  const projectId = Number(params.projectId);
  const pageId = Number(params.pageId);
  const page = usePage(projectId, pageId);
  const reported = useRef(false);

  useEffect(() => {
    if (page.isError && !reported.current) {
      reported.current = true;
      toast.error(errorMessage(page.error));
      navigate(paths.home, { replace: true });
    }
  }, [page.isError, page.error, navigate]);

  if (!page.data) return <PageLoader />;
  return <PageForm page={page.data} />;
}
