import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Alert } from '@/components/Alert';
import { useConfirm } from '@/components/ConfirmDialog';
import { Form, FormActions } from '@/components/Form';
import { InputField } from '@/components/FormControls';
import { FormField } from '@/components/FormField';
import { PageLoader } from '@/components/PageLoader';
import { toast } from '@/components/toast';
import { ApiError, detailMessage, errorMessage } from '@/lib/api-client';
import { errorText, slugFillers, useZodForm } from '@/lib/forms';
import { useCreatePost } from '@/features/collections/api/create-post';
import { useDeletePost } from '@/features/collections/api/delete-post';
import { usePost } from '@/features/collections/api/get-post';
import { useTable } from '@/features/collections/api/get-table';
import { useUpdatePost } from '@/features/collections/api/update-post';
import {
  draftFromValues,
  recordFormSchema,
  recordFormValues,
  toPostPayload,
  valueKey,
  type RecordFormValues,
} from '@/features/collections/lib/record-form';
import type { Post, Table } from '@/features/collections/types';
import { FieldEditor, fieldInputId } from './editors/FieldEditor';
import type { RecordScope } from './record-scope';
import { useLeaveOnError } from './use-project-route';
import { ButtonLink } from '@/components/ButtonLink';
import { ActionButton } from '@/components/ActionButton';

interface FormProps {
  scope: RecordScope;
  table: Table;
  post: Post | undefined;
}

function RecordFormBody({ scope, table, post }: FormProps) {
  const { t } = useTranslation();
  const [confirmDialog, askConfirm] = useConfirm();
  const navigate = useNavigate();
  const create = useCreatePost();
  const update = useUpdatePost();
  const remove = useDeletePost();
  const { includeTitle, hasSingular } = table.meta;
  const { form, failure, bind } = useZodForm(recordFormSchema(table.fields, { includeTitle, hasSingular }), {
    defaultValues: recordFormValues(table.fields, post),
    serverFields: ['name', 'slug'],
    serverFieldMap: Object.fromEntries(
      table.fields.map((field) => [field.slug, `values.${valueKey(field)}` as const]),
    ),
  });
  const { errors } = form.formState;
  const { fillSlug, normaliseSlug } = slugFillers(form, () => hasSingular);
  const mutation = post ? update : create;
  const listLink = scope.listLink(table.id);
  const uploadPrefix = scope.uploadPrefix(table.id);
  const recordLabel = post ? post.name || `#${post.id}` : t('records.form.newTitle');

  // Spec: the required fields left empty are also listed under 'Please fill all required fields:'.
  // A refusal of the server at a field is no missing value: it shows at its field only.
  const isMissing = (error: { type?: unknown } | undefined) => error !== undefined && error.type !== 'server';
  const missing = [
    ...(isMissing(errors.name) ? [t('records.form.title')] : []),
    ...(isMissing(errors.slug) ? [t('records.form.slug')] : []),
    ...table.fields.filter((field) => isMissing(errors.values?.[valueKey(field)])).map((field) => field.name),
  ];

  const submit = (values: RecordFormValues) => {
    failure.clear();
    const draft = draftFromValues(table.fields, values);
    const payload = toPostPayload(table.fields, {
      ...draft,
      // Without individual pages the record still gets a slug, from its title.
      slug: hasSingular ? draft.slug : draft.slug || draft.name,
    });
    const onSuccess = () => {
      toast.success(t('records.form.saved'));
      void navigate(listLink);
    };
    const onError = (error: Error) => {
      // A problem with one field (`details`) is shown at that field.
      const detail =
        error instanceof ApiError ? error.details.find((item) => item.field_id !== undefined) : undefined;
      const target = table.fields.find((field) => field.id === detail?.field_id);
      if (detail && target) {
        form.setError(
          `values.${valueKey(target)}`,
          { type: 'server', message: detailMessage(detail) },
          { shouldFocus: true },
        );
      } else failure.report(error);
    };
    if (post) update.mutate({ id: post.id, ...payload }, { onSuccess, onError });
    else create.mutate({ table_id: table.id, ...payload }, { onSuccess, onError });
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
      <Form form={form} onValid={submit} className="card form record-form" testId="record-form">
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
        {failure.message && (
          <Alert testId="record-error">
            {failure.message}
            {serverDetails.length > 0 && (
              <ul>
                {serverDetails.map((detail, index) => (
                  <li key={index}>
                    {[fieldName(detail.field_id), detailMessage(detail)].filter(Boolean).join(': ')}
                  </li>
                ))}
              </ul>
            )}
          </Alert>
        )}
        {(includeTitle || hasSingular) && (
          <div className="two-columns">
            {includeTitle && (
              <InputField
                label={t('records.form.title')}
                id="record-title"
                required
                {...bind('name', { onBlur: fillSlug })}
              />
            )}
            {hasSingular && (
              <InputField
                label={t('records.form.slug')}
                id="record-slug"
                required
                {...bind('slug', { onBlur: normaliseSlug })}
              />
            )}
          </div>
        )}
        {table.fields.map((field) => (
          <Controller
            key={field.id}
            control={form.control}
            name={`values.${valueKey(field)}`}
            render={({ field: binding, fieldState }) => (
              <FormField
                label={field.name}
                id={fieldInputId(field)}
                required={field.required === '1'}
                labelAs={field.type === 'checkbox' ? 'text' : 'label'}
                error={errorText(t, fieldState.error)}
                className={`field-type-${field.type}`}
                testId="record-field"
                wrapperProps={{ 'data-field-type': field.type }}
              >
                {(control) => (
                  <FieldEditor
                    field={field}
                    value={binding.value}
                    onChange={binding.onChange}
                    uploadPrefix={uploadPrefix}
                    aria={{
                      'aria-invalid': control['aria-invalid'],
                      'aria-describedby': control['aria-describedby'],
                    }}
                  />
                )}
              </FormField>
            )}
          />
        ))}
        <FormActions
          before={
            <>
              {post && (
                <ActionButton
                  variant="danger"
                  className="record-delete"
                  onClick={() => void destroy()}
                  disabled={remove.isPending}
                  testId="record-delete"
                >
                  {t('common.delete')}
                </ActionButton>
              )}
              <ButtonLink to={listLink} testId="record-back">
                {t('common.back')}
              </ButtonLink>
            </>
          }
          isDisabled={mutation.isPending}
          testId="record-save"
        />
      </Form>
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
    <RecordFormBody
      key={`${tableId}-${postId ?? 'new'}`}
      scope={scope}
      table={table.data}
      post={postId === undefined ? undefined : post.data}
    />
  );
}
