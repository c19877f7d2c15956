import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/components/toast-store';
import { errorMessage } from '@/lib/api-client';
import type { Project } from '@/lib/types';
import { useDuplicateProject } from '@/features/projects/api/duplicate-project';

/** The "Duplicate" dropdown of a project card or row. */
export function DuplicateMenu({ project }: { project: Project }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const duplicate = useDuplicateProject();

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  const run = () => {
    setOpen(false);
    duplicate.mutate(project.id, {
      onSuccess: () => toast.success(t('projects.duplicated')),
      onError: (error) => toast.error(errorMessage(error)),
    });
  };

  return (
    <div className="dropdown" ref={ref}>
      <button
        type="button"
        className="button button-small"
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={duplicate.isPending}
        onClick={() => setOpen((value) => !value)}
        data-testid="duplicate-toggle"
      >
        {t('projects.duplicate')} ▾
      </button>
      {open && (
        <div className="dropdown-menu" role="menu">
          <button type="button" role="menuitem" onClick={run} data-testid="duplicate-action">
            {t('projects.duplicateAction')}
          </button>
        </div>
      )}
    </div>
  );
}
