import { useId } from 'react';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { useUpdateProject } from '@/features/projects/api/update-project';

/** What a switch says: its label and help, and the toasts once it is saved on or off. */
export interface MetaToggleTexts {
  label: string;
  help: string;
  enabled: string;
  disabled: string;
}

interface MetaToggleProps {
  projectId: number;
  /** The key of the project's meta the switch saves. */
  setting: 'hsts' | 'analytics';
  /** The saved value. */
  value: boolean;
  texts: MetaToggleTexts;
}

/**
 * A checkbox that saves one on/off key of the project's meta at once (`POST /api/projects/{id}`
 * with `meta: { [setting]: value }`; the server merges it), toasting the result. The HSTS and
 * analytics switches are two of it. Test ids: `{setting}-toggle` and `{setting}-help`.
 */
export function MetaToggle({ projectId, setting, value, texts }: MetaToggleProps) {
  const update = useUpdateProject();
  const helpId = useId();
  // While saving, show what was asked for rather than flicker back to the old value.
  const checked = update.isPending ? Boolean(update.variables.meta?.[setting]) : value;

  const toggle = (next: boolean) =>
    update.mutate(
      { id: projectId, meta: { [setting]: next } },
      {
        onSuccess: () => toast.success(next ? texts.enabled : texts.disabled),
        onError: (error) => toast.error(errorMessage(error)),
      },
    );

  return (
    <div className={`${setting}-toggle`}>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={checked}
          disabled={update.isPending}
          onChange={(event) => toggle(event.target.checked)}
          aria-describedby={helpId}
          data-testid={`${setting}-toggle`}
        />
        {texts.label}
      </label>
      <small id={helpId} className="field-hint" data-testid={`${setting}-help`}>
        {texts.help}
      </small>
    </div>
  );
}
