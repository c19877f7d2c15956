import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import type { PageSummary } from '@/lib/types';
import { DEVICES, ZOOMS } from '@/features/pages/lib/preview-size';
import type { PreviewSizeControl } from './use-preview-size';
import { clockTime, type SaveState } from '@/features/pages/lib/save-state';
import { ActionButton } from '@/components/ActionButton';

interface Props {
  projectId: number;
  projectName: string;
  pages: PageSummary[];
  pageId: number;
  onPageChange: (pageId: number) => void;
  /** The preview's size, which the device toggle and the scale or device menu change. */
  size: PreviewSizeControl;
  canUndo: boolean;
  canRedo: boolean;
  onUndo: () => void;
  onRedo: () => void;
  state: SaveState;
  onSave: () => void;
  onPreview: () => void;
  onDeploy: () => void;
  /** The publish dropdown (publish, unpublish, domain), supplied by the app. */
  publishMenu?: ReactNode;
}

/**
 * The editor's top bar (spec §2): project link, page menu, device toggle with the desktop
 * zoom menu (fit to the window's width, or a preset) or the mobile device, undo/redo, the save state, Preview, the publish dropdown and
 * Deploy (Preview, Deploy and the dropdown's Publish disabled while saving or with unsaved
 * changes).
 */
export function EditorTopBar(props: Props) {
  const { t } = useTranslation();
  const { state } = props;
  const blocked = state.kind !== 'saved';
  /** Undo or redo: its arrow shown, its name for screen readers and as the tooltip. */
  const historyButton = (name: 'undo' | 'redo', arrow: string, can: boolean, onClick: () => void) => (
    <ActionButton
      size="small"
      disabled={!can}
      onClick={onClick}
      testId={name}
      title={t(`editor.topbar.${name}`)}
    >
      {arrow} <span className="sr-only">{t(`editor.topbar.${name}`)}</span>
    </ActionButton>
  );
  /** Preview or Deploy: disabled while saving or with unsaved changes. */
  const publishButton = (name: 'preview' | 'deploy', onClick: () => void, variant?: 'primary') => (
    <ActionButton
      size="small"
      variant={variant}
      disabled={blocked}
      onClick={onClick}
      testId={`${name}-button`}
    >
      {t(`editor.topbar.${name}`)}
    </ActionButton>
  );
  return (
    <header className="editor-topbar" data-testid="editor-topbar">
      {/* The canvas is the screen's content: its name heads the page for screen readers. */}
      <h1 className="sr-only">{t('documentTitle.editor')}</h1>
      <div className="editor-topbar-group">
        <Link
          to={paths.project.build({ projectId: props.projectId })}
          className="editor-project-link"
          data-testid="project-link"
        >
          ← {props.projectName}
        </Link>
        <label className="sr-only" htmlFor="editor-page">
          {t('editor.topbar.page')}
        </label>
        <select
          id="editor-page"
          value={props.pageId}
          onChange={(event) => props.onPageChange(Number(event.target.value))}
          data-testid="page-select"
        >
          {props.pages.map((page) => (
            <option key={page.id} value={page.id}>
              {page.name}
            </option>
          ))}
        </select>
      </div>
      <div className="editor-topbar-group" role="group" aria-label={t('editor.topbar.device')}>
        {(['desktop', 'mobile'] as const).map((mode) => (
          <ActionButton
            key={mode}
            size="small"
            className={props.size.mode === mode ? 'is-active' : undefined}
            aria-pressed={props.size.mode === mode}
            onClick={() => props.size.setMode(mode)}
            testId={`device-${mode}`}
          >
            {mode === 'desktop' ? t('editor.topbar.desktop') : t('editor.topbar.mobile')}
          </ActionButton>
        ))}
        {props.size.mode === 'desktop' ? (
          <select
            aria-label={t('editor.topbar.zoom')}
            value={String(props.size.zoom)}
            onChange={(event) =>
              props.size.setZoom(event.target.value === 'fit' ? 'fit' : Number(event.target.value))
            }
            data-testid="scale-select"
          >
            {ZOOMS.map((zoom) => (
              <option key={zoom} value={String(zoom)}>
                {zoom === 'fit'
                  ? t('editor.topbar.zoomFit', { percent: Math.round(props.size.fit * 100) })
                  : t('editor.topbar.zoomPercent', { percent: Math.round(zoom * 100) })}
              </option>
            ))}
          </select>
        ) : (
          <select
            aria-label={t('editor.topbar.deviceChoice')}
            value={props.size.device.id}
            onChange={(event) => props.size.setDevice(event.target.value)}
            data-testid="device-select"
          >
            {DEVICES.map((device) => (
              <option key={device.id} value={device.id}>
                {device.name} ({device.width}x{device.height})
              </option>
            ))}
          </select>
        )}
      </div>
      <div className="editor-topbar-group">
        {historyButton('undo', '↶', props.canUndo, props.onUndo)}
        {historyButton('redo', '↷', props.canRedo, props.onRedo)}
        <ActionButton
          size="small"
          className="save-state"
          disabled={state.kind !== 'dirty'}
          onClick={props.onSave}
          testId="save-state"
          data-state={state.kind}
          aria-live="polite"
        >
          {state.kind === 'saving' && t('editor.topbar.saving')}
          {state.kind === 'dirty' && t('editor.topbar.saveChanges')}
          {state.kind === 'saved' &&
            (state.at ? t('editor.topbar.savedAt', { time: clockTime(state.at) }) : t('editor.topbar.saved'))}
        </ActionButton>
        {publishButton('preview', props.onPreview)}
        {props.publishMenu}
        {publishButton('deploy', props.onDeploy, 'primary')}
      </div>
    </header>
  );
}
