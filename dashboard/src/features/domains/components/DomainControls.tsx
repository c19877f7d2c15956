import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionButton } from '@/components/ActionButton';
import { NextDomainCheck } from '@/components/DomainStatusNote';
import type { ProjectDetail } from '@/lib/types';
import { CertificateBadge } from './CertificateBadge';
import { ConfigureDomainModal } from './ConfigureDomainModal';
import { RemoveDomainModal } from './RemoveDomainModal';

/**
 * What the overview shows beside the project's domain: whether it is verified or pending (saved
 * before its records were in place: the server checks it again on its own, and says when), the
 * state of its certificate, and the Configure domain and Remove domain actions.
 */
export function DomainControls({ project }: { project: ProjectDetail }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<'configure' | 'remove' | null>(null);
  const configureButton = useRef<HTMLButtonElement>(null);
  const removeButton = useRef<HTMLButtonElement>(null);
  const close = () => {
    const trigger = open === 'remove' ? removeButton : configureButton;
    setOpen(null);
    trigger.current?.focus();
  };
  // Verified means verified for this domain: a flag left from an earlier domain does not count.
  const verified = Boolean(
    project.domain && project.meta.verified && project.meta.verifiedDomain === project.domain,
  );
  const check = project.domain_check?.domain === project.domain ? project.domain_check : null;
  /** The button that opens a dialog, which gives the focus back to it on closing. */
  const opener = (dialog: 'configure' | 'remove', label: string) => (
    <ActionButton
      ref={dialog === 'remove' ? removeButton : configureButton}
      size="small"
      variant={dialog === 'remove' ? 'danger' : undefined}
      onClick={() => setOpen(dialog)}
      aria-haspopup="dialog"
      testId={`${dialog}-domain`}
    >
      {label}
    </ActionButton>
  );

  return (
    <div className="domain-controls" data-testid="domain-controls">
      {project.domain && (
        <div className="domain-state">
          <span
            className={`badge ${verified ? 'badge-success' : 'badge-muted'}`}
            data-testid="domain-verified"
            data-verified={verified}
            data-pending={Boolean(check)}
          >
            {verified ? t('domains.verified') : check ? t('domains.pending') : t('domains.unverified')}
          </span>
          {check && (
            <span className="small" data-testid="domain-pending-live">
              {t('domains.pendingLive', { address: project.preview_url, domain: project.domain })}
            </span>
          )}
          {check && <NextDomainCheck check={check} />}
          <CertificateBadge certificate={project.certificate} />
        </div>
      )}
      <div className="button-row">
        {opener('configure', t('domains.configure'))}
        {project.domain && opener('remove', t('domains.remove'))}
      </div>
      {open === 'configure' && <ConfigureDomainModal project={project} onClose={close} />}
      {open === 'remove' && <RemoveDomainModal project={project} onClose={close} />}
    </div>
  );
}
