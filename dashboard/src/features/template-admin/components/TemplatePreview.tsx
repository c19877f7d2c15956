import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import { templatePreviewUrl } from '@/features/template-admin/lib/urls';
import type { TemplateDetail } from '@/features/template-admin/types';
import { UseTemplateModal } from './UseTemplateModal';
import { ActionButton } from '@/components/ActionButton';
import { useUser } from '@/lib/auth/get-user';

type Device = 'desktop' | 'mobile';

/** Widths of the preview: a desktop page (scaled down to fit) and a phone. */
export const PREVIEW_WIDTH: Record<Device, number> = { desktop: 1280, mobile: 390 };
const PREVIEW_HEIGHT: Record<Device, number> = { desktop: 800, mobile: 780 };

/** The width available to the frame, followed as the window resizes (null before layout, and in tests). */
function useWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth || null));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/**
 * The theme preview: the template's details, a page switcher, desktop/mobile width, and "use this
 * template". Owners come from the new project's gallery and go back there; administrators from
 * the templates screen. Nothing here changes the template: it is a read-only look at it.
 */
export function TemplatePreview({ template }: { template: TemplateDetail }) {
  const { t } = useTranslation();
  const isAdmin = useUser().data?.is_admin === true;
  const home = template.pages.find((page) => page.slug === '/') ?? template.pages[0];
  const [slug, setSlug] = useState<string | undefined>(home?.slug);
  const [device, setDevice] = useState<Device>('desktop');
  const [using, setUsing] = useState(false);
  const [stageRef, stageWidth] = useWidth<HTMLDivElement>();

  const width = PREVIEW_WIDTH[device];
  const height = PREVIEW_HEIGHT[device];
  // The desktop page keeps its 1280 px layout, scaled down to the room there is.
  const scale = device === 'desktop' && stageWidth ? Math.min(1, stageWidth / width) : 1;

  return (
    <div className="page template-preview" data-testid="template-preview">
      <header className="page-header">
        <div>
          <Link
            to={isAdmin ? paths.erpTemplates.build() : paths.projectNew.build()}
            className="muted small"
            data-testid="template-preview-back"
          >
            ← {isAdmin ? t('templatePreview.back') : t('templatePreview.backToNew')}
          </Link>
          <h1 data-testid="template-preview-name">{template.name}</h1>
          <div className="button-row">
            {template.category && (
              <span className="badge badge-muted" data-testid="template-preview-category">
                {template.category}
              </span>
            )}
            {template.is_published !== '1' && (
              <span className="badge badge-danger">{t('templatePreview.unpublished')}</span>
            )}
          </div>
          {template.description && (
            <p className="muted" data-testid="template-preview-description">
              {template.description}
            </p>
          )}
          {!isAdmin && (
            <p className="muted small" data-testid="template-preview-read-only">
              {t('templatePreview.readOnly')}
            </p>
          )}
        </div>
        <ActionButton variant="primary" onClick={() => setUsing(true)} testId="template-use">
          {t('templatePreview.use')}
        </ActionButton>
      </header>

      <div className="button-row template-preview-toolbar">
        {template.pages.length > 0 && (
          <label className="checkbox-row">
            {t('templatePreview.page')}{' '}
            <select
              value={slug}
              onChange={(event) => setSlug(event.target.value)}
              data-testid="template-preview-page"
            >
              {template.pages.map((page) => (
                <option key={page.slug} value={page.slug}>
                  {page.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <div className="segmented" role="group" aria-label={t('templatePreview.device')}>
          {(['desktop', 'mobile'] as const).map((choice) => (
            <button
              key={choice}
              type="button"
              aria-pressed={device === choice}
              onClick={() => setDevice(choice)}
              data-testid={`template-preview-${choice}`}
            >
              {t(`templatePreview.${choice}`)}
            </button>
          ))}
        </div>
      </div>

      <div ref={stageRef} className="template-preview-stage">
        <div
          className="template-preview-viewport"
          style={{ width: width * scale, height: height * scale }}
          data-testid="template-preview-viewport"
          data-device={device}
        >
          <iframe
            // No scripts, no same-origin access; the server also sends the page with a sandbox CSP.
            sandbox=""
            src={templatePreviewUrl(template.id, slug)}
            title={t('templatePreview.frameTitle', { name: template.name })}
            width={width}
            height={height}
            style={{ transform: scale === 1 ? undefined : `scale(${scale})` }}
            data-testid="template-preview-frame"
          />
        </div>
      </div>

      {using && <UseTemplateModal template={template} onClose={() => setUsing(false)} />}
    </div>
  );
}
