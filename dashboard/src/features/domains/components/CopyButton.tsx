import { useTranslation } from 'react-i18next';
import { toast } from '@/components/toast';
import { ActionButton } from '@/components/ActionButton';

/**
 * Copies one DNS record's name or value. Without a clipboard (outside secure contexts) it says
 * so; the value stays on screen, selectable.
 */
export function CopyButton({ value, label, testId }: { value: string; label: string; testId: string }) {
  const { t } = useTranslation();
  const copy = () => {
    if (!navigator.clipboard) {
      toast.error(t('domains.copyFailed'));
      return;
    }
    void navigator.clipboard.writeText(value).then(
      () => toast.success(t('domains.copied')),
      () => toast.error(t('domains.copyFailed')),
    );
  };
  return (
    <ActionButton size="small" onClick={copy} aria-label={label} testId={testId}>
      {t('domains.copy')}
    </ActionButton>
  );
}
