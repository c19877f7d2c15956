import { useTranslation } from 'react-i18next';
import { EFFECTS, hasEffect, type Effect } from '@/features/pages/lib/page-blocks';
import type { SectionKind } from '@/features/pages/lib/shared-sections';
import type { BlockVar, PageBlock, VarChange } from '@/features/pages/types';
import { listingPage, seeAllLink } from '@/features/pages/lib/binding';
import { asLink, readSource } from '@/features/pages/lib/var-values';
import { useEditorContext } from './editor-context';
import { VarEditor } from './fields/VarEditor';
import { ActionButton } from '@/components/ActionButton';
import { Checkbox } from '@/components/FormControls';

interface Props {
  block: PageBlock | null;
  index: number;
  count: number;
  onVarChange: (name: string, change: VarChange) => void;
  onToggleEffect: (effect: Effect) => void;
  onMove: (to: number) => void;
  onDuplicate: () => void;
  onRemove: () => void;
  onEditCode: () => void;
  /** Set when the block is the site's shared header or footer (edits change every page). */
  shared?: SectionKind | null;
  /** Makes a page block the site's header or footer. */
  onMakeSection?: (kind: SectionKind) => void;
  /** Gives this page its own copy of the shared section. */
  onUnlink?: () => void;
}

/**
 * The Block tab (spec §2): the selected block's variables, its effects (combinable), move
 * up/down (the keyboard's way to reorder), duplicate, remove, and the source-code modal (edit
 * code, save to My Blocks, and for admins the global library). A page block can be made the
 * site's header or footer; the shared header or footer shows a marker instead of the page
 * actions, and can be unlinked from this page.
 */
export function BlockTab({
  block,
  index,
  count,
  onVarChange,
  onToggleEffect,
  onMove,
  onDuplicate,
  onRemove,
  onEditCode,
  shared = null,
  onMakeSection,
  onUnlink,
}: Props) {
  const { t } = useTranslation();
  const { tables, pages = [], pageId = null } = useEditorContext();
  if (!block) {
    return (
      <p className="muted" data-testid="no-block">
        {t('editor.block.none')}
      </p>
    );
  }
  /**
   * A variable's change; a list newly bound to a collection also points the block's "see all"
   * link at the owner's page that lists that collection, when the project has one.
   */
  const changeVar = (v: BlockVar, change: VarChange) => {
    onVarChange(v.name, change);
    if (v.type !== 'list' || typeof change === 'function' || !change.source || change.source === v.source)
      return;
    const { kind, target } = readSource(change.source);
    const table = kind === 'db' ? tables.find((item) => item.slug === target) : undefined;
    const page = table && listingPage(pages, table, pageId);
    const link = seeAllLink(block.vars);
    if (!page || !link) return;
    onVarChange(link.name, (current) => ({ value: { ...asLink(current.value), href: `/${page.slug}` } }));
  };
  // A shared header or footer keeps this one of the block's actions.
  const editCode = (
    <ActionButton size="small" onClick={onEditCode} testId="block-code">
      {t('editor.block.editCode')}
    </ActionButton>
  );
  return (
    <div className="block-tab" data-uid={block.uid}>
      <h2 className="block-tab-title" data-testid="block-name">
        {block.name}
      </h2>
      {shared ? (
        <>
          <p className="section-note" data-testid="shared-section-note">
            {t(shared === 'header' ? 'editor.sections.sharedHeader' : 'editor.sections.sharedFooter')}
          </p>
          <div className="button-row block-actions">
            {editCode}
            <ActionButton size="small" onClick={onUnlink} testId="section-unlink">
              {t('editor.sections.unlink')}
            </ActionButton>
          </div>
        </>
      ) : (
        <div className="button-row block-actions">
          <ActionButton
            size="small"
            disabled={index <= 0}
            onClick={() => onMove(index - 1)}
            testId="block-up"
          >
            ↑ {t('editor.block.up')}
          </ActionButton>
          <ActionButton
            size="small"
            disabled={index >= count - 1}
            onClick={() => onMove(index + 1)}
            testId="block-down"
          >
            ↓ {t('editor.block.down')}
          </ActionButton>
          <ActionButton size="small" onClick={onDuplicate} testId="block-duplicate">
            {t('editor.block.duplicate')}
          </ActionButton>
          {editCode}
          <ActionButton size="small" onClick={onEditCode} testId="block-save-mine">
            {t('editor.block.saveMine')}
          </ActionButton>
          <ActionButton size="small" variant="danger-ghost" onClick={onRemove} testId="block-remove">
            {t('editor.block.remove')}
          </ActionButton>
          {onMakeSection &&
            (['header', 'footer'] as const).map((kind) => (
              <ActionButton
                size="small"
                key={kind}
                onClick={() => onMakeSection(kind)}
                testId={`make-${kind}`}
              >
                {t(kind === 'header' ? 'editor.sections.makeHeader' : 'editor.sections.makeFooter')}
              </ActionButton>
            ))}
        </div>
      )}
      {block.vars.length === 0 && <p className="muted">{t('editor.block.noFields')}</p>}
      {block.vars.map((v) => (
        <VarEditor
          key={`${block.uid}:${v.name}`}
          uid={block.uid}
          v={v}
          onChange={(patch) => changeVar(v, patch)}
        />
      ))}
      <fieldset className="effects" data-testid="effects">
        <legend>{t('editor.block.effect')}</legend>
        {EFFECTS.map((effect) => (
          <Checkbox
            key={effect}
            label={t(`editor.effects.${effect}`)}
            checked={hasEffect(block.effect, effect)}
            onChange={() => onToggleEffect(effect)}
            testId={`effect-${effect}`}
          />
        ))}
      </fieldset>
    </div>
  );
}
