import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import { useIdentity } from '@/lib/site/identity';
import { identityValue, isEmptyVarValue, isIdentityKey, type IdentityKey } from '@/lib/site/identity-vars';
import { applyValueChange, type BlockVar, type VarChange } from '@/features/pages/types';
import { useEditorContext } from '@/features/pages/components/editor-context';
import { valueEditors } from './registry';
import { ValueEditor, ValueEditorsContext } from './ValueEditor';

interface Props {
  uid: string;
  v: BlockVar;
  onChange: (change: VarChange) => void;
}

/**
 * Under a variable that falls back to the site identity and is empty: what the block shows
 * instead ("Da identidade do site: Doces da Bruna") and a link to the identity screen.
 */
function IdentityHint({ id, identityKey }: { id: string; identityKey: IdentityKey }) {
  const { t } = useTranslation();
  const { projectId } = useEditorContext();
  const identity = useIdentity(projectId);
  const value = identity.data ? identityValue(identity.data, identityKey) : '';
  return (
    <p className="field-hint identity-hint" id={id} data-testid="identity-hint">
      {value ? t('identity.fromIdentity', { value }) : t('identity.fromIdentityEmpty')}{' '}
      <Link className="identity-hint-link" to={paths.projectIdentity.build({ projectId })}>
        {t('identity.editIdentity')}
      </Link>
    </p>
  );
}

/** The identity's value for an empty variable that falls back to it, as its placeholder. */
function useIdentityPlaceholder(identityKey: IdentityKey | null): string | undefined {
  const { t } = useTranslation();
  const { projectId } = useEditorContext();
  const identity = useIdentity(identityKey ? projectId : 0);
  if (!identityKey || !identity.data) return undefined;
  const value = identityValue(identity.data, identityKey);
  return value ? t('identity.fromIdentity', { value }) : undefined;
}

/**
 * One variable of the selected block: its editor, and on a collection page a binding to the
 * post's Date, Name, Permalink or a field (`postfield`, any non-list definition per
 * docs/blocks.md), which replaces the typed value.
 */
export function VarEditor({ uid, v, onChange }: Props) {
  const { t } = useTranslation();
  const { postFields } = useEditorContext();
  const id = `var-${uid}-${v.name}`;
  const bindable = postFields !== null && v.type !== 'list';
  const bound = bindable && Boolean(v.postfield);
  const identityKey = isIdentityKey(v.identity) && isEmptyVarValue(v.value) ? v.identity : null;
  const placeholder = useIdentityPlaceholder(identityKey);
  return (
    <div className="field var-field" data-testid={`var-${v.name}`} data-type={v.type}>
      <label htmlFor={id}>{v.label || v.name}</label>
      {bindable && (
        <select
          className="var-binding"
          aria-label={t('editor.bind.label', { name: v.label || v.name })}
          value={v.postfield ?? ''}
          onChange={(e) => onChange({ postfield: e.target.value || undefined })}
          data-testid={`bind-${v.name}`}
        >
          <option value="">{t('editor.bind.none')}</option>
          <option value="date">{t('editor.bind.date')}</option>
          <option value="name">{t('editor.bind.name')}</option>
          <option value="permalink">{t('editor.bind.permalink')}</option>
          {postFields.map((field) => (
            <option key={field.id} value={field.slug}>
              {field.name}
            </option>
          ))}
        </select>
      )}
      {bound ? (
        <p className="muted" data-testid={`bound-${v.name}`}>
          {t('editor.bind.bound')}
        </p>
      ) : (
        <ValueEditorsContext.Provider value={valueEditors}>
          <ValueEditor
            id={id}
            v={v}
            onValue={(value) =>
              onChange(
                typeof value === 'function'
                  ? (current) => ({ value: applyValueChange(value, current.value) })
                  : { value },
              )
            }
            onPatch={onChange}
            placeholder={placeholder}
          />
        </ValueEditorsContext.Provider>
      )}
      {identityKey && !bound && <IdentityHint id={`${id}-identity`} identityKey={identityKey} />}
    </div>
  );
}
