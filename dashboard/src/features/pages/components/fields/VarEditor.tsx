import { useTranslation } from 'react-i18next';
import { applyValueChange, type BlockVar, type VarChange } from '@/features/pages/types';
import { useEditorContext } from '@/features/pages/components/editor-context';
import { ValueEditor } from './ValueEditor';

interface Props {
  uid: string;
  v: BlockVar;
  onChange: (change: VarChange) => void;
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
        />
      )}
    </div>
  );
}
