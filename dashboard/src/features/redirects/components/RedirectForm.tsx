import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormField } from '@/components/FormField';
import { Dialog } from '@/components/ui/Dialog';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { showWarnings } from '@/lib/warnings';
import { Form, FormActions } from '@/components/Form';
import { errorText, setServerError } from '@/lib/forms';
import { useSaveRedirect } from '@/features/redirects/api/save-redirect';
import {
  originWarning,
  redirectRuleSchema,
  type RedirectRuleInput,
} from '@/features/redirects/lib/redirect-rule';
import type { Redirect } from '@/features/redirects/types';

interface RedirectFormProps {
  projectId: number;
  /** The rule being edited; absent for a new one. */
  redirect?: Redirect;
  /** A new rule's origin, filled in (the analytics screen's "Criar redirecionamento" of a 404). */
  defaultFrom?: string;
  onDone: () => void;
}

/**
 * One rule (".../redirects/new", ".../redirects/edit/{id}"). Checked as the owner types with the
 * same rules as the server; Save stays disabled while the rule is invalid (spec §2). A failed
 * save shows the server's text in an 'Erro' toast (spec §8) and beside the field it names. A rule
 * saved over one of the site's pages is kept, with a warning toast naming the page.
 */
export function RedirectForm({ projectId, redirect, defaultFrom = '', onDone }: RedirectFormProps) {
  const { t } = useTranslation();
  const save = useSaveRedirect();
  // Checked as the owner types: each field's error shows once that field has been changed.
  const form = useForm<RedirectRuleInput>({
    resolver: zodResolver(redirectRuleSchema),
    mode: 'onChange',
    defaultValues: { from: redirect?.from ?? defaultFrom, to: redirect?.to ?? '' },
  });
  const { errors, isValid } = form.formState;
  // Shown as soon as the origin is `*`, before the destination is even typed.
  const warning = originWarning(useWatch({ control: form.control, name: 'from' }));

  const submit = (values: RedirectRuleInput) => {
    const rule = redirectRuleSchema.parse(values);
    save.mutate(
      { id: redirect?.id, project_id: projectId, from: rule.from, to: rule.to },
      {
        onSuccess: (saved) => {
          toast.success(t('redirects.saved'));
          // Saved, but it hides a page: the owner hears which, in their language.
          showWarnings(saved.warnings);
          onDone();
        },
        onError: (error) => {
          toast.error(t('redirects.saveFailed', { message: errorMessage(error) }));
          setServerError(form, error, ['from', 'to']);
        },
      },
    );
  };

  return (
    <Dialog
      title={redirect ? t('redirects.editTitle') : t('redirects.newTitle')}
      onClose={onDone}
      testId="redirect-form"
    >
      <Form form={form} onValid={submit} className="form">
        <FormField
          label={t('redirects.from')}
          id="redirect-from"
          error={errorText(t, errors.from)}
          description={
            warning ? (
              <strong className="field-warning" data-testid="redirect-warning">
                {t(warning.key)}
              </strong>
            ) : (
              t('redirects.fromHint')
            )
          }
        >
          {(control) => (
            <input
              {...control}
              maxLength={300}
              autoFocus={defaultFrom === ''}
              autoComplete="off"
              {...form.register('from')}
              data-testid="redirect-from-input"
            />
          )}
        </FormField>
        <FormField
          label={t('redirects.to')}
          id="redirect-to"
          error={errorText(t, errors.to)}
          description={t('redirects.toHint')}
        >
          {(control) => (
            <input
              {...control}
              maxLength={300}
              // With the origin given, the destination is what is left to type.
              autoFocus={defaultFrom !== ''}
              autoComplete="off"
              {...form.register('to')}
              data-testid="redirect-to-input"
            />
          )}
        </FormField>
        <FormActions onCancel={onDone} isDisabled={!isValid || save.isPending} testId="redirect-save" />
      </Form>
    </Dialog>
  );
}
