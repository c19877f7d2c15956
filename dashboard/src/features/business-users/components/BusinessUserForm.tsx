import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/app/paths';
import { Field } from '@/components/Field';
import { toast } from '@/components/toast';
import { ApiError, errorMessage } from '@/lib/api-client';
import { fieldErrors } from '@/lib/validation';
import { projectsQueryOptions } from '@/lib/projects/get-projects';
import { useSaveBusinessUser } from '@/features/business-users/api/save-business-user';
import { accessFromUser, hasProjectList } from '@/features/business-users/lib/access-level';
import { toPayload, userFormSchema, type UserFormValues } from '@/features/business-users/lib/user-form';
import { ACCESS_LEVELS, type AccessLevel, type BusinessUser } from '@/features/business-users/types';

interface Props {
  /** The user being edited; absent for a new one. */
  user?: BusinessUser;
}

function initialValues(user: BusinessUser | undefined): UserFormValues {
  if (!user) return { name: '', email: '', password: '', level: 'all_projects', projectIds: [] };
  const access = accessFromUser(user);
  return {
    name: user.name,
    email: user.email,
    password: '',
    level: access.level,
    projectIds: access.projectIds,
  };
}

/**
 * New or edit business user (spec 2 "Edit business user"): name, email, password and the access
 * level, with a checklist of the business's projects for a whitelist or blacklist. Checked before
 * sending (spec §5); saved → 'User updated successfully' and back to /users; a failure toasts the
 * server's message (spec §8) and shows it beside the field it names.
 */
export function BusinessUserForm({ user }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const save = useSaveBusinessUser();
  const isNew = user === undefined;
  const [values, setValues] = useState<UserFormValues>(() => initialValues(user));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const showProjects = hasProjectList(values.level);
  const projects = useQuery({ ...projectsQueryOptions, enabled: showProjects });

  const set = <K extends keyof UserFormValues>(key: K, value: UserFormValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));
  const toggleProject = (id: number, checked: boolean) =>
    set('projectIds', checked ? [...values.projectIds, id] : values.projectIds.filter((item) => item !== id));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = userFormSchema(isNew).safeParse(values);
    if (!parsed.success) {
      const keys = fieldErrors(parsed.error);
      setErrors(Object.fromEntries(Object.entries(keys).map(([field, key]) => [field, t(key)])));
      return;
    }
    setErrors({});
    save.mutate(
      { ...(user ? { id: user.id } : {}), user: toPayload(parsed.data) },
      {
        onSuccess: () => {
          toast.success(t('businessUsers.saved'));
          void navigate(paths.users.build());
        },
        onError: (failure) => {
          const message = errorMessage(failure);
          toast.error(message);
          if (failure instanceof ApiError && failure.field) setErrors({ [failure.field]: message });
        },
      },
    );
  };

  return (
    <div className="page" data-testid="business-user-form">
      <header className="page-header">
        <h1>{isNew ? t('businessUsers.newTitle') : t('businessUsers.editTitle')}</h1>
      </header>
      <form onSubmit={submit} className="card form" noValidate>
        <Field label={t('businessUsers.name')} htmlFor="user-name" error={errors.name}>
          <input
            id="user-name"
            value={values.name}
            onChange={(event) => set('name', event.target.value)}
            data-testid="user-name"
          />
        </Field>
        <Field label={t('businessUsers.email')} htmlFor="user-email" error={errors.email}>
          <input
            id="user-email"
            type="email"
            value={values.email}
            onChange={(event) => set('email', event.target.value)}
            data-testid="user-email"
          />
        </Field>
        <Field
          label={t('businessUsers.password')}
          htmlFor="user-password"
          error={errors.password}
          hint={
            isNew ? undefined : (
              <span data-testid="user-password-hint">{t('businessUsers.passwordHint')}</span>
            )
          }
        >
          <input
            id="user-password"
            type="password"
            autoComplete="new-password"
            value={values.password}
            onChange={(event) => set('password', event.target.value)}
            data-testid="user-password"
          />
        </Field>
        <Field label={t('businessUsers.accessLevel')} htmlFor="user-level" error={errors.level}>
          <select
            id="user-level"
            value={values.level}
            onChange={(event) => set('level', event.target.value as AccessLevel)}
            data-testid="user-level"
          >
            {ACCESS_LEVELS.map((level) => (
              <option key={level} value={level}>
                {t(`businessUsers.levels.${level}`)}
              </option>
            ))}
          </select>
        </Field>
        {showProjects && (
          <fieldset className="field" data-testid="user-projects">
            <legend>{t('businessUsers.projects')}</legend>
            {projects.isPending && <p className="muted">{t('common.loading')}</p>}
            {projects.isError && <p className="field-error">{errorMessage(projects.error)}</p>}
            {projects.data?.length === 0 && <p className="muted">{t('businessUsers.noProjects')}</p>}
            {projects.data?.map((project) => (
              <div key={project.id}>
                <label className="checkbox">
                  <input
                    type="checkbox"
                    checked={values.projectIds.includes(project.id)}
                    onChange={(event) => toggleProject(project.id, event.target.checked)}
                    data-testid={`user-project-${project.id}`}
                  />{' '}
                  {project.name}
                </label>
              </div>
            ))}
          </fieldset>
        )}
        <div className="form-actions">
          <Link to={paths.users.build()} className="button" data-testid="user-form-cancel">
            {t('common.cancel')}
          </Link>
          <button
            type="submit"
            className="button button-primary"
            disabled={save.isPending}
            data-testid="user-form-save"
          >
            {t('common.save')}
          </button>
        </div>
      </form>
    </div>
  );
}
