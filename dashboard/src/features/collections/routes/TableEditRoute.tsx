import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate } from 'react-router';
import { paths } from '@/app/paths';
import { Alert } from '@/components/Alert';
import { Form, FormActions } from '@/components/Form';
import { CheckboxRow, InputField, SelectField } from '@/components/FormControls';
import { PageLoader } from '@/components/PageLoader';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/forms';
import { NameSlugFields } from '@/components/NameSlugFields';
import type { ProjectDetail } from '@/lib/types';
import { useCreateTable } from '@/features/collections/api/create-table';
import { useTable } from '@/features/collections/api/get-table';
import { useUpdateTable } from '@/features/collections/api/update-table';
import { tableFormSchema, type TableBody } from '@/features/collections/lib/schemas';
import {
  useLeaveOnError,
  useNumberParam,
  useProjectOrLeave,
} from '@/features/collections/components/use-project-route';
import { DEFAULT_TABLE_META, type Table } from '@/features/collections/types';
import { ButtonLink } from '@/components/ButtonLink';

const BUILT_IN_ORDER_FIELDS = ['created_at', 'updated_at', 'name', 'slug'] as const;

function OrderOptions({ table, allowNone }: { table: Table | undefined; allowNone: boolean }) {
  const { t } = useTranslation();
  return (
    <>
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
    </>
  );
}

function DirOptions() {
  const { t } = useTranslation();
  return (
    <>
      <option value="asc">{t('collections.editor.asc')}</option>
      <option value="desc">{t('collections.editor.desc')}</option>
    </>
  );
}

/** Server fields named otherwise in the form. */
const SERVER_FIELDS = {
  plural: 'meta.plural',
  singular: 'meta.singular',
  orderField: 'meta.orderField',
  orderField2: 'meta.orderField2',
} as const;

function TableForm({ project, table }: { project: ProjectDetail; table: Table | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateTable();
  const update = useUpdateTable();
  const { form, failure, bind, submitTo } = useZodForm(tableFormSchema, {
    defaultValues: {
      name: table?.name ?? '',
      slug: table?.slug ?? '',
      meta: { ...DEFAULT_TABLE_META, orderField2: null, orderDir2: null, ...table?.meta },
    },
    serverFields: ['name', 'slug', 'meta.plural', 'meta.singular', 'meta.orderField', 'meta.orderField2'],
    serverFieldMap: SERVER_FIELDS,
  });
  const orderField2 = useWatch({ control: form.control, name: 'meta.orderField2' });
  const mutation = table ? update : create;

  const submit = (body: TableBody) => {
    const onError = (error: Error) => toast.error(errorMessage(error));
    if (table) {
      submitTo(
        update,
        { id: table.id, ...body },
        { onSuccess: () => toast.success(t('collections.saved')), onError },
      );
    } else {
      submitTo(
        create,
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
            <ButtonLink to={paths.projectTableFields.build({ projectId: project.id, tableId: table.id })}>
              {t('collections.fieldsLink')}
            </ButtonLink>
            <ButtonLink to={paths.projectTableData.build({ projectId: project.id, tableId: table.id })}>
              {t('collections.browse')}
            </ButtonLink>
          </div>
        )}
      </div>
      <Form form={form} onValid={submit} className="card form settings-form" testId="collection-form">
        {failure.message && <Alert testId="collection-error">{failure.message}</Alert>}
        <div className="two-columns">
          <NameSlugFields
            form={form}
            id="table"
            testIds={{ name: 'collection-name', slug: 'collection-slug' }}
            labels={{ name: t('collections.name'), slug: t('collections.slug') }}
            slugHint={t('collections.editor.slugHint')}
            fill="leaving"
          />
          {(['plural', 'singular'] as const).map((number) => (
            <InputField
              key={number}
              label={t(`collections.editor.${number}`)}
              id={`table-${number}`}
              testId={`collection-${number}`}
              required
              {...bind(`meta.${number}`)}
            />
          ))}
        </div>
        <CheckboxRow
          boxes={[
            {
              label: t('collections.editor.hasSingular'),
              field: form.register('meta.hasSingular'),
              testId: 'collection-has-singular',
            },
            {
              label: t('collections.editor.includeDate'),
              field: form.register('meta.includeDate'),
              testId: 'collection-include-date',
            },
            {
              label: t('collections.editor.includeTitle'),
              field: form.register('meta.includeTitle'),
              testId: 'collection-include-title',
            },
          ]}
        />
        <h2 className="section-title">{t('collections.editor.order')}</h2>
        <div className="two-columns">
          <SelectField
            label={t('collections.editor.orderField')}
            id="table-order-field"
            testId="collection-order-field"
            {...bind('meta.orderField')}
          >
            <OrderOptions table={table} allowNone={false} />
          </SelectField>
          <SelectField
            label={t('collections.editor.orderDir')}
            id="table-order-dir"
            testId="collection-order-dir"
            {...bind('meta.orderDir')}
          >
            <DirOptions />
          </SelectField>
          <SelectField
            label={t('collections.editor.orderField2')}
            id="table-order-field2"
            testId="collection-order-field2"
            {...bind('meta.orderField2', { setValueAs: (value: string | null) => value || null })}
          >
            <OrderOptions table={table} allowNone />
          </SelectField>
          {orderField2 && (
            <SelectField
              label={t('collections.editor.orderDir2')}
              id="table-order-dir2"
              testId="collection-order-dir2"
              {...bind('meta.orderDir2', {
                setValueAs: (value: string | null) => (value === 'desc' ? 'desc' : 'asc'),
              })}
            >
              <DirOptions />
            </SelectField>
          )}
        </div>
        <FormActions
          before={
            <ButtonLink to={paths.projectTables.build({ projectId: project.id })}>
              {t('common.back')}
            </ButtonLink>
          }
          isDisabled={mutation.isPending}
          testId="collection-save"
        />
      </Form>
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
