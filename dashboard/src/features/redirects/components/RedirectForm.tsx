import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '@/components/Field';
import { Dialog } from '@/components/ui/Dialog';
import { toast } from '@/components/toast';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useSaveRedirect } from '@/features/redirects/api/save-redirect';
import { originWarning, parseRule, type Issue } from '@/features/redirects/lib/redirect-rule';
import type { Redirect } from '@/features/redirects/types';

interface RedirectFormProps {
  projectId: number;
  /** The rule being edited; absent for a new one. */
  redirect?: Redirect;
  onDone: () => void;
}

/**
 * One rule (".../redirects/new", ".../redirects/edit/{id}"). Checked as the owner types with the
 * same rules as the server; Save stays disabled while the rule is invalid (spec §2). A failed
 * save shows the server's text in an 'Erro' toast (spec §8) and beside the field it names.
 */
export function RedirectForm({ projectId, redirect, onDone }: RedirectFormProps) {
  const { t } = useTranslation();
  const save = useSaveRedirect();
  const [from, setFrom] = useState(redirect?.from ?? '');
  const [to, setTo] = useState(redirect?.to ?? '');
  // Errors show once a field has been typed in, so a blank new form does not start in red.
  const [touched, setTouched] = useState({ from: redirect !== undefined, to: redirect !== undefined });
  const [serverError, setServerError] = useState<{ field: string; message: string }>();

  const rule = parseRule(from, to);
  // Shown as soon as the origin is `*`, before the destination is even typed.
  const warning = originWarning(from);
  const message = (issue: Issue) => t(issue.key, issue.values ?? {});
  const errorFor = (field: 'from' | 'to') => {
    if (serverError?.field === field) return serverError.message;
    if (!rule.ok && rule.field === field && touched[field]) return message(rule.issue);
    return undefined;
  };

  const edit = (field: 'from' | 'to', value: string) => {
    (field === 'from' ? setFrom : setTo)(value);
    setTouched((current) => ({ ...current, [field]: true }));
    setServerError(undefined);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!rule.ok) return;
    save.mutate(
      { id: redirect?.id, project_id: projectId, from: rule.from, to: rule.to },
      {
        onSuccess: () => {
          toast.success(t('redirects.saved'));
          onDone();
        },
        onError: (error) => {
          toast.error(t('redirects.saveFailed', { message: errorMessage(error) }));
          if (error instanceof ApiError && (error.field === 'from' || error.field === 'to')) {
            setServerError({ field: error.field, message: error.message });
          }
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
      <form onSubmit={submit} noValidate className="form">
        <Field
          label={t('redirects.from')}
          htmlFor="redirect-from"
          error={errorFor('from')}
          hint={
            warning ? (
              <strong className="field-warning" data-testid="redirect-warning">
                {message(warning)}
              </strong>
            ) : (
              t('redirects.fromHint')
            )
          }
        >
          <input
            id="redirect-from"
            value={from}
            maxLength={300}
            autoFocus
            autoComplete="off"
            onChange={(event) => edit('from', event.target.value)}
            data-testid="redirect-from-input"
          />
        </Field>
        <Field
          label={t('redirects.to')}
          htmlFor="redirect-to"
          error={errorFor('to')}
          hint={t('redirects.toHint')}
        >
          <input
            id="redirect-to"
            value={to}
            maxLength={300}
            autoComplete="off"
            onChange={(event) => edit('to', event.target.value)}
            data-testid="redirect-to-input"
          />
        </Field>
        <div className="form-actions">
          <button type="button" className="button" onClick={onDone}>
            {t('common.cancel')}
          </button>
          <button
            type="submit"
            className="button button-primary"
            disabled={!rule.ok || save.isPending}
            data-testid="redirect-save"
          >
            {t('common.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
