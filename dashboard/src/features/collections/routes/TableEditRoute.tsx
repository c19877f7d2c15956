import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate } from 'react-router';
import { paths } from '@/app/paths';
import { Alert } from '@/components/Alert';
import { FormField } from '@/components/FormField';
import { PageLoader } from '@/components/PageLoader';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import type { ProjectDetail } from '@/lib/types';
import { fieldErrors, slugify } from '@/lib/validation';
import { useCreateTable } from '@/features/collections/api/create-table';
import { useTable } from '@/features/collections/api/get-table';
import { useUpdateTable } from '@/features/collections/api/update-table';
import { tableFormSchema } from '@/features/collections/lib/schemas';
import {
  useLeaveOnError,
  useNumberParam,
  useProjectOrLeave,
} from '@/features/collections/components/use-project-route';
import { DEFAULT_TABLE_META, type OrderDir, type Table, type TableMeta } from '@/features/collections/types';

const BUILT_IN_ORDER_FIELDS = ['created_at', 'updated_at', 'name', 'slug'] as const;

function OrderSelect({
  id,
  value,
  onChange,
  table,
  allowNone,
  testId,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  table: Table | undefined;
  allowNone: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <select id={id} value={value} onChange={(event) => onChange(event.target.value)} data-testid={testId}>
      {allowNone && <option value="">{t('collections.editor.none')}</option>}
      {BUILT_IN_ORDER_FIELDS.map((field) => (
        <option key={field} value={field}>
          {t(`collections.editor.orderFields.${field}`)}
        </option>
      ))}
      {table?.fields.map((field) => (
        <option key={field.id} value={String(field.id)}>
          {field.name}
        </option>
      ))}
    </select>
  );
}

function DirSelect({
  id,
  value,
  onChange,
  testId,
}: {
  id: string;
  value: OrderDir;
  onChange: (value: OrderDir) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <select
      id={id}
      value={value}
      onChange={(event) => onChange(event.target.value === 'asc' ? 'asc' : 'desc')}
      data-testid={testId}
    >
      <option value="asc">{t('collections.editor.asc')}</option>
      <option value="desc">{t('collections.editor.desc')}</option>
    </select>
  );
}

function TableForm({ project, table }: { project: ProjectDetail; table: Table | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateTable();
  const update = useUpdateTable();
  const [name, setName] = useState(table?.name ?? '');
  const [slug, setSlug] = useState(table?.slug ?? '');
  const [meta, setMeta] = useState<TableMeta>({ ...DEFAULT_TABLE_META, ...table?.meta });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const mutation = table ? update : create;
  const setMetaKey = <K extends keyof TableMeta>(key: K, value: TableMeta[K]) =>
    setMeta((current) => ({ ...current, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = tableFormSchema.safeParse({
      name,
      slug,
      meta: {
        ...meta,
        orderField2: meta.orderField2 || null,
        orderDir2: meta.orderField2 ? (meta.orderDir2 ?? 'asc') : null,
      },
    });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    const body = {
      name: parsed.data.name,
      slug: slugify(parsed.data.slug || parsed.data.name),
      meta: parsed.data.meta,
    };
    const onError = (error: Error) => toast.error(errorMessage(error));
    if (table) {
      update.mutate(
        { id: table.id, ...body },
        { onSuccess: () => toast.success(t('collections.saved')), onError },
      );
    } else {
      create.mutate(
        { project_id: project.id, ...body },
        {
          onSuccess: (created) => {
            toast.success(t('collections.created'));
            void navigate(paths.projectTableFields.build({ projectId: project.id, tableId: created.id }));
          },
          onError,
        },
      );
    }
  };

  const error = (key: string) => (errors[key] ? t(errors[key]) : undefined);
  const heading = table ? t('collections.editor.editTitle') : t('collections.editor.newTitle');

  return (
    <section className="page">
      <nav className="breadcrumbs">
        <Link to={paths.project.build({ projectId: project.id })}>{project.name}</Link> /{' '}
        <Link to={paths.projectTables.build({ projectId: project.id })}>{t('collections.title')}</Link> /{' '}
        <span>{table?.name ?? t('collections.new')}</span>
      </nav>
      <div className="page-header">
        <h1>{heading}</h1>
        {table && (
          <div className="button-row">
            <Link
              to={paths.projectTableFields.build({ projectId: project.id, tableId: table.id })}
              className="button"
            >
              {t('collections.fieldsLink')}
            </Link>
            <Link
              to={paths.projectTableData.build({ projectId: project.id, tableId: table.id })}
              className="button"
            >
              {t('collections.browse')}
            </Link>
          </div>
        )}
      </div>
      <form className="card form settings-form" onSubmit={submit} noValidate data-testid="collection-form">
        {mutation.isError && <Alert testId="collection-error">{errorMessage(mutation.error)}</Alert>}
        <div className="two-columns">
          <FormField label={t('collections.name')} id="table-name" error={error('name')}>
            <input
              id="table-name"
              value={name}
              onChange={(event) => setName(event.target.value)}
              onBlur={() => {
                if (slug.trim() === '') setSlug(slugify(name));
              }}
              data-testid="collection-name"
            />
          </FormField>
          <FormField
            label={t('collections.slug')}
            id="table-slug"
            description={t('collections.editor.slugHint')}
          >
            <input
              id="table-slug"
              value={slug}
              onChange={(event) => setSlug(event.target.value)}
              onBlur={() => setSlug(slugify(slug))}
              data-testid="collection-slug"
            />
          </FormField>
          <FormField label={t('collections.editor.plural')} id="table-plural" error={error('meta.plural')}>
            <input
              id="table-plural"
              value={meta.plural}
              onChange={(event) => setMetaKey('plural', event.target.value)}
              data-testid="collection-plural"
            />
          </FormField>
          <FormField
            label={t('collections.editor.singular')}
            id="table-singular"
            error={error('meta.singular')}
          >
            <input
              id="table-singular"
              value={meta.singular}
              onChange={(event) => setMetaKey('singular', event.target.value)}
              data-testid="collection-singular"
            />
          </FormField>
        </div>
        <div className="checkbox-row">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={meta.hasSingular}
              onChange={(event) => setMetaKey('hasSingular', event.target.checked)}
              data-testid="collection-has-singular"
            />
            {t('collections.editor.hasSingular')}
          </label>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={meta.includeDate}
              onChange={(event) => setMetaKey('includeDate', event.target.checked)}
              data-testid="collection-include-date"
            />
            {t('collections.editor.includeDate')}
          </label>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={meta.includeTitle}
              onChange={(event) => setMetaKey('includeTitle', event.target.checked)}
              data-testid="collection-include-title"
            />
            {t('collections.editor.includeTitle')}
          </label>
        </div>
        <h2 className="section-title">{t('collections.editor.order')}</h2>
        <div className="two-columns">
          <FormField label={t('collections.editor.orderField')} id="table-order-field">
            <OrderSelect
              id="table-order-field"
              value={meta.orderField}
              onChange={(value) => setMetaKey('orderField', value)}
              table={table}
              allowNone={false}
              testId="collection-order-field"
            />
          </FormField>
          <FormField label={t('collections.editor.orderDir')} id="table-order-dir">
            <DirSelect
              id="table-order-dir"
              value={meta.orderDir}
              onChange={(value) => setMetaKey('orderDir', value)}
              testId="collection-order-dir"
            />
          </FormField>
          <FormField label={t('collections.editor.orderField2')} id="table-order-field2">
            <OrderSelect
              id="table-order-field2"
              value={meta.orderField2 ?? ''}
              onChange={(value) =>
                setMeta((current) => ({
                  ...current,
                  orderField2: value || null,
                  orderDir2: value ? (current.orderDir2 ?? 'asc') : null,
                }))
              }
              table={table}
              allowNone
              testId="collection-order-field2"
            />
          </FormField>
          {meta.orderField2 && (
            <FormField label={t('collections.editor.orderDir2')} id="table-order-dir2">
              <DirSelect
                id="table-order-dir2"
                value={meta.orderDir2 ?? 'asc'}
                onChange={(value) => setMetaKey('orderDir2', value)}
                testId="collection-order-dir2"
              />
            </FormField>
          )}
        </div>
        <div className="form-actions">
          <Link to={paths.projectTables.build({ projectId: project.id })} className="button">
            {t('common.back')}
          </Link>
          <button
            type="submit"
            className="button button-primary"
            disabled={mutation.isPending}
            data-testid="collection-save"
          >
            {t('common.save')}
          </button>
        </div>
      </form>
    </section>
  );
}

function EditTable({ project, tableId }: { project: ProjectDetail; tableId: number }) {
  const table = useTable(tableId);
  useLeaveOnError(table.error, paths.projectTables.build({ projectId: project.id }));
  if (!table.data) return <PageLoader />;
  return <TableForm key={table.data.id} project={project} table={table.data} />;
}

/** "/project/{project_id}/table/new" and "/project/{project_id}/table/{id}". */
export function TableEditRoute({ isNew }: { isNew: boolean }) {
  const projectId = useNumberParam('projectId');
  const tableId = useNumberParam('tableId');
  const project = useProjectOrLeave(projectId);
  if (!Number.isInteger(projectId)) return <Navigate to={paths.home.build()} replace />;
  if (!project.data) return <PageLoader />;
  if (isNew) return <TableForm project={project.data} table={undefined} />;
  if (!Number.isInteger(tableId)) return <Navigate to={paths.projectTables.build({ projectId })} replace />;
  return <EditTable project={project.data} tableId={tableId} />;
}
