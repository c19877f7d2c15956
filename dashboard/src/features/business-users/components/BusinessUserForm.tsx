import { useQuery } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '@/app/paths';
import { FormField } from '@/components/FormField';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { projectsQueryOptions } from '@/lib/projects/get-projects';
import { Form, FormActions } from '@/components/Form';
import { errorText, setServerError } from '@/lib/forms';
import { useSaveBusinessUser } from '@/features/business-users/api/save-business-user';
import { accessFromUser, hasProjectList } from '@/features/business-users/lib/access-level';
import { toPayload, userFormSchema, type UserFormValues } from '@/features/business-users/lib/user-form';
import { ACCESS_LEVELS, type BusinessUser } from '@/features/business-users/types';
import { ButtonLink } from '@/components/ButtonLink';

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
  const form = useForm<UserFormValues>({
    resolver: zodResolver(userFormSchema(isNew)),
    defaultValues: initialValues(user),
  });
  const { errors } = form.formState;
  const showProjects = hasProjectList(useWatch({ control: form.control, name: 'level' }));
  const projects = useQuery({ ...projectsQueryOptions, enabled: showProjects });

  const submit = (values: UserFormValues) => {
    save.mutate(
      { ...(user ? { id: user.id } : {}), user: toPayload(userFormSchema(isNew).parse(values)) },
      {
        onSuccess: () => {
          toast.success(t('businessUsers.saved'));
          void navigate(paths.users.build());
        },
        onError: (failure) => {
          toast.error(errorMessage(failure));
          setServerError(form, failure, ['name', 'email', 'password', 'level', 'projectIds']);
        },
      },
    );
  };

  return (
    <div className="page" data-testid="business-user-form">
      <header className="page-header">
        <h1>{isNew ? t('businessUsers.newTitle') : t('businessUsers.editTitle')}</h1>
      </header>
      <Form form={form} onValid={submit} className="card form">
        <FormField label={t('businessUsers.name')} id="user-name" error={errorText(t, errors.name)}>
          {(control) => <input {...control} {...form.register('name')} data-testid="user-name" />}
        </FormField>
        <FormField label={t('businessUsers.email')} id="user-email" error={errorText(t, errors.email)}>
          {(control) => (
            <input {...control} type="email" {...form.register('email')} data-testid="user-email" />
          )}
        </FormField>
        <FormField
          label={t('businessUsers.password')}
          id="user-password"
          error={errorText(t, errors.password)}
          description={
            isNew ? undefined : (
              <span data-testid="user-password-hint">{t('businessUsers.passwordHint')}</span>
            )
          }
        >
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="new-password"
              {...form.register('password')}
              data-testid="user-password"
            />
          )}
        </FormField>
        <FormField label={t('businessUsers.accessLevel')} id="user-level" error={errorText(t, errors.level)}>
          {(control) => (
            <select {...control} {...form.register('level')} data-testid="user-level">
              {ACCESS_LEVELS.map((level) => (
                <option key={level} value={level}>
                  {t(`businessUsers.levels.${level}`)}
                </option>
              ))}
            </select>
          )}
        </FormField>
        {showProjects && (
          <fieldset className="field" data-testid="user-projects">
            <legend>{t('businessUsers.projects')}</legend>
            {projects.isPending && <p className="muted">{t('common.loading')}</p>}
            {projects.isError && <p className="field-error">{errorMessage(projects.error)}</p>}
            {projects.data?.length === 0 && <p className="muted">{t('businessUsers.noProjects')}</p>}
            <Controller
              control={form.control}
              name="projectIds"
              render={({ field }) => (
                <>
                  {projects.data?.map((project) => (
                    <div key={project.id}>
                      <label className="checkbox">
                        <input
                          type="checkbox"
                          checked={field.value.includes(project.id)}
                          onChange={(event) =>
                            field.onChange(
                              event.target.checked
                                ? [...field.value, project.id]
                                : field.value.filter((item) => item !== project.id),
                            )
                          }
                          data-testid={`user-project-${project.id}`}
                        />{' '}
                        {project.name}
                      </label>
                    </div>
                  ))}
                </>
              )}
            />
          </fieldset>
        )}
        <FormActions
          before={
            <ButtonLink to={paths.users.build()} testId="user-form-cancel">
              {t('common.cancel')}
            </ButtonLink>
          }
          isDisabled={save.isPending}
          testId="user-form-save"
        />
      </Form>
    </div>
  );
}
