import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/components/ConfirmDialog';
import { Link, useNavigate } from 'react-router';
import { Alert } from '@/components/Alert';
import { PageLoader } from '@/components/PageLoader';
import { toast } from '@/components/toast';
import { ApiError, errorMessage } from '@/lib/api-client';
import { slugify } from '@/lib/validation';
import { useCreatePost } from '@/features/collections/api/create-post';
import { useDeletePost } from '@/features/collections/api/delete-post';
import { usePost } from '@/features/collections/api/get-post';
import { useTable } from '@/features/collections/api/get-table';
import { useUpdatePost } from '@/features/collections/api/update-post';
import {
  draftFromPost,
  missingRequired,
  toPostPayload,
  type FormValue,
  type RecordDraft,
} from '@/features/collections/lib/record-form';
import type { Post, Table } from '@/features/collections/types';
import { FieldEditor, fieldInputId } from './editors/FieldEditor';
import type { RecordScope } from './record-scope';
import { useLeaveOnError } from './use-project-route';

interface FormProps {
  scope: RecordScope;
  table: Table;
  post: Post | undefined;
}

function Form({ scope, table, post }: FormProps) {
  const { t } = useTranslation();
  const [confirmDialog, askConfirm] = useConfirm();
  const navigate = useNavigate();
  const create = useCreatePost();
  const update = useUpdatePost();
  const remove = useDeletePost();
  const [draft, setDraft] = useState<RecordDraft>(() => draftFromPost(table.fields, post));
  const [missing, setMissing] = useState<string[]>([]);
  const mutation = post ? update : create;
  const listLink = scope.listLink(table.id);
  const uploadPrefix = scope.uploadPrefix(table.id);
  const { includeTitle, hasSingular } = table.meta;
  const recordLabel = post ? post.name || `#${post.id}` : t('records.form.newTitle');

  const setValue = (fieldId: number, value: FormValue) =>
    setDraft((current) => ({ ...current, values: { ...current.values, [fieldId]: value } }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const absent = missingRequired({
      fields: table.fields,
      draft,
      includeTitle,
      hasSingular,
      labels: { title: t('records.form.title'), slug: t('records.form.slug') },
    });
    setMissing(absent);
    if (absent.length > 0) return;
    const payload = toPostPayload(table.fields, {
      ...draft,
      // Without individual pages the record still gets a slug, from its title.
      slug: hasSingular ? draft.slug : draft.slug || draft.name,
    });
    const onSuccess = () => {
      toast.success(t('records.form.saved'));
      void navigate(listLink);
    };
    if (post) update.mutate({ id: post.id, ...payload }, { onSuccess });
    else create.mutate({ table_id: table.id, ...payload }, { onSuccess });
  };

  const destroy = async () => {
    if (!post) return;
    const confirmed = await askConfirm({
      title: t('kit.confirm.deleteRecords', { count: 1 }),
      message: t('kit.confirm.irreversible'),
      confirmLabel: t('common.delete'),
      destructive: true,
    });
    if (!confirmed) return;
    remove.mutate(
      { id: post.id, tableId: table.id },
      {
        onSuccess: () => {
          toast.success(t('records.form.deleted'));
          void navigate(listLink);
        },
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  };

  const serverDetails = mutation.error instanceof ApiError ? mutation.error.details : [];
  const fieldName = (fieldId: number | undefined) => table.fields.find((field) => field.id === fieldId)?.name;

  return (
    <section className="page" data-testid="record-form-page">
      <nav className="breadcrumbs" data-testid="record-breadcrumbs">
        <Link to={scope.projectLink}>{scope.projectName}</Link> / <Link to={listLink}>{table.name}</Link> /{' '}
        <span>{recordLabel}</span>
      </nav>
      <div className="page-header">
        <h1>
          {post
            ? t('records.form.editTitle', { singular: table.meta.singular || table.name })
            : t('records.form.newRecordOf', { singular: table.meta.singular || table.name })}
        </h1>
      </div>
      <form className="card form record-form" onSubmit={submit} noValidate data-testid="record-form">
        {missing.length > 0 && (
          <Alert testId="record-missing">
            {t('records.form.missing')}
            <ul>
              {missing.map((name) => (
                <li key={name}>{name}</li>
              ))}
            </ul>
          </Alert>
        )}
        {mutation.isError && (
          <Alert testId="record-error">
            {errorMessage(mutation.error)}
            {serverDetails.length > 0 && (
              <ul>
                {serverDetails.map((detail, index) => (
                  <li key={index}>
                    {[fieldName(detail.field_id), detail.message].filter(Boolean).join(': ')}
                  </li>
                ))}
              </ul>
            )}
          </Alert>
        )}
        {(includeTitle || hasSingular) && (
          <div className="two-columns">
            {includeTitle && (
              <div className="field">
                <label htmlFor="record-title">{t('records.form.title')} *</label>
                <input
                  id="record-title"
                  value={draft.name}
                  required
                  onChange={(event) => setDraft((current) => ({ ...current, name: event.target.value }))}
                  onBlur={() =>
                    setDraft((current) =>
                      hasSingular && current.slug.trim() === ''
                        ? { ...current, slug: slugify(current.name) }
                        : current,
                    )
                  }
                  data-testid="record-title"
                />
              </div>
            )}
            {hasSingular && (
              <div className="field">
                <label htmlFor="record-slug">{t('records.form.slug')} *</label>
                <input
                  id="record-slug"
                  value={draft.slug}
                  required
                  onChange={(event) => setDraft((current) => ({ ...current, slug: event.target.value }))}
                  onBlur={() => setDraft((current) => ({ ...current, slug: slugify(current.slug) }))}
                  data-testid="record-slug"
                />
              </div>
            )}
          </div>
        )}
        {table.fields.map((field) => (
          <div
            key={field.id}
            className={`field field-type-${field.type}${missing.includes(field.name) ? ' field-invalid' : ''}`}
            data-testid="record-field"
            data-field-type={field.type}
          >
            {field.type === 'checkbox' ? (
              <span className="label">
                {field.name}
                {field.required === '1' && ' *'}
              </span>
            ) : (
              <label id={`${fieldInputId(field)}-label`} htmlFor={fieldInputId(field)}>
                {field.name}
                {field.required === '1' && ' *'}
              </label>
            )}
            <FieldEditor
              field={field}
              value={draft.values[field.id]}
              onChange={(value) => setValue(field.id, value)}
              uploadPrefix={uploadPrefix}
            />
          </div>
        ))}
        <div className="form-actions">
          {post && (
            <button
              type="button"
              className="button button-danger record-delete"
              onClick={() => void destroy()}
              disabled={remove.isPending}
              data-testid="record-delete"
            >
              {t('common.delete')}
            </button>
          )}
          <Link to={listLink} className="button" data-testid="record-back">
            {t('common.back')}
          </Link>
          <button
            type="submit"
            className="button button-primary"
            disabled={mutation.isPending}
            data-testid="record-save"
          >
            {t('common.save')}
          </button>
        </div>
      </form>
      {confirmDialog}
    </section>
  );
}

/** Record form: new when there is no post id, edit when there is (spec §2). */
export function RecordForm({
  scope,
  tableId,
  postId,
}: {
  scope: RecordScope;
  tableId: number;
  postId: number | undefined;
}) {
  const table = useTable(tableId);
  const post = usePost(postId ?? 0);
  useLeaveOnError(table.error ?? post.error, scope.listLink(tableId));
  if (!table.data || (postId !== undefined && !post.data)) return <PageLoader />;
  return (
    <Form
      key={`${tableId}-${postId ?? 'new'}`}
      scope={scope}
      table={table.data}
      post={postId === undefined ? undefined : post.data}
    />
  );
}
