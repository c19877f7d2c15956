import { useDraggable } from '@dnd-kit/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/components/ConfirmDialog';
import { DeleteBusinessBlockModal } from '@/components/DeleteBusinessBlockModal';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { useDeleteMyBlock } from '@/features/pages/api/delete-my-block';
import {
  isSearchActive,
  searchBlocks,
  searchBusinessBlocks,
  sortBlocks,
  splitCategories,
} from '@/features/pages/lib/block-search';
import type { LibraryBlock, LibraryCategory } from '@/lib/types';
import type { BlockLibrary, BlockSource, BusinessBlock, MyBlock } from '@/features/pages/types';
import type { DragData } from './CanvasFrame';
import { ActionButton } from '@/components/ActionButton';
import { SearchInput } from '@/components/Toolbar';

const MY_BLOCKS = 'my-blocks';
const BUSINESS_BLOCKS = 'business-blocks';

/** A category's SVG icon as an image: markup from the library never runs on this origin. */
function CategoryIcon({ svg }: { svg: string }) {
  if (!svg.trim()) return null;
  return (
    <img
      className="category-icon"
      alt=""
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
    />
  );
}

interface ItemProps {
  source: BlockSource;
  block: LibraryBlock | MyBlock | BusinessBlock;
  onInsert: (source: BlockSource, id: number) => void;
  onDelete?: (() => void) | undefined;
}

/**
 * One block: dragged into the preview to insert it where it lands, or added with "Adicionar"
 * (after the selected block, else before the page's footer: `lib/insert-position.ts`).
 */
function LibraryItem({ source, block, onInsert, onDelete }: ItemProps) {
  const { t } = useTranslation();
  const data: DragData = { kind: 'insert', source, id: block.id };
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({
    id: `${source}:${block.id}`,
    data,
  });
  const image = 'image' in block && block.image ? block.image : null;
  return (
    <li
      className={`library-block${isDragging ? ' is-dragging' : ''}`}
      data-testid="library-block"
      data-source={source}
      data-block-id={block.id}
    >
      <div
        ref={setNodeRef}
        className="library-block-drag"
        {...attributes}
        {...listeners}
        aria-label={t('editor.library.drag', { name: block.name })}
      >
        {image ? (
          <img src={image} alt="" loading="lazy" />
        ) : (
          <span className="library-block-placeholder" aria-hidden="true" />
        )}
        <span className="library-block-name">{block.name}</span>
      </div>
      <div className="button-row">
        <ActionButton size="small" onClick={() => onInsert(source, block.id)} testId="library-add">
          {t('editor.library.add')}
        </ActionButton>
        {onDelete && (
          <ActionButton
            size="small"
            variant="danger-ghost"
            onClick={onDelete}
            testId={`${source}-block-delete`}
          >
            {t('common.delete')}
          </ActionButton>
        )}
      </div>
    </li>
  );
}

interface Props {
  library: BlockLibrary;
  onInsert: (source: BlockSource, id: number) => void;
  /**
   * The user's business, when they belong to one: its library shows beside My Blocks, and its
   * administrators (`canManage`) may delete from it (the server decides in any case).
   */
  business: { canManage: boolean } | null;
}

/**
 * The left panel (spec §2): search from 2 characters over names and keywords, then the special
 * categories (Elements, My Blocks, the business's blocks) and the library's categories; one
 * open at a time.
 */
export function BlockLibraryPanel({ library, onInsert, business }: Props) {
  const { t } = useTranslation();
  const [confirmDialog, askConfirm] = useConfirm();
  const [term, setTerm] = useState('');
  const { elements, others } = splitCategories(library.categories);
  const [open, setOpen] = useState<string | null>(elements ? String(elements.id) : null);
  const deleteMyBlock = useDeleteMyBlock();
  const [removing, setRemoving] = useState<BusinessBlock | null>(null);

  const removeMine = async (block: MyBlock) => {
    const confirmed = await askConfirm({
      title: t('editor.library.confirmDelete', { name: block.name }),
      message: t('kit.confirm.irreversible'),
      confirmLabel: t('common.delete'),
      destructive: true,
    });
    if (!confirmed) return;
    deleteMyBlock.mutate(block.id, { onError: (error) => toast.error(errorMessage(error)) });
  };

  const category = (key: string, name: string, icon: string, content: ReactNode, testId: string) => (
    <li key={key} className="library-category" data-testid={testId}>
      <button
        type="button"
        className="library-category-button"
        aria-expanded={open === key}
        onClick={() => setOpen(open === key ? null : key)}
        data-testid="library-category"
      >
        <CategoryIcon svg={icon} /> {name}
      </button>
      {open === key && content}
    </li>
  );

  const list = (blocks: LibraryBlock[]) => (
    <ul className="library-blocks">
      {sortBlocks(blocks).map((block) => (
        <LibraryItem key={block.id} source="library" block={block} onInsert={onInsert} />
      ))}
    </ul>
  );

  const active = isSearchActive(term);
  const results = active ? searchBlocks(library.categories, term) : [];
  const businessResults = active && business ? searchBusinessBlocks(library.business_blocks, term) : [];

  return (
    <aside className="editor-library" aria-label={t('editor.library.title')}>
      <SearchInput
        label={t('editor.library.search')}
        value={term}
        onChange={setTerm}
        className="block-search"
        testId="block-search"
      />
      {active ? (
        results.length + businessResults.length > 0 ? (
          <ul className="library-blocks" data-testid="search-results">
            {businessResults.map((block) => (
              <LibraryItem key={`business:${block.id}`} source="business" block={block} onInsert={onInsert} />
            ))}
            {results.map((block) => (
              <LibraryItem key={block.id} source="library" block={block} onInsert={onInsert} />
            ))}
          </ul>
        ) : (
          <p className="muted" data-testid="search-empty">
            {t('editor.library.noResults')}
          </p>
        )
      ) : (
        <ul className="library-categories">
          {elements &&
            category(
              String(elements.id),
              elements.name,
              elements.icon,
              list(elements.blocks),
              'category-elements',
            )}
          {category(
            MY_BLOCKS,
            t('editor.library.myBlocks'),
            '',
            library.my_blocks.length > 0 ? (
              <ul className="library-blocks">
                {library.my_blocks.map((block) => (
                  <LibraryItem
                    key={block.id}
                    source="my"
                    block={block}
                    onInsert={onInsert}
                    onDelete={() => void removeMine(block)}
                  />
                ))}
              </ul>
            ) : (
              <p className="muted">{t('editor.library.noMyBlocks')}</p>
            ),
            'category-my-blocks',
          )}
          {business &&
            category(
              BUSINESS_BLOCKS,
              t('editor.library.businessBlocks'),
              '',
              library.business_blocks.length > 0 ? (
                <ul className="library-blocks">
                  {sortBlocks(library.business_blocks).map((block) => (
                    <LibraryItem
                      key={block.id}
                      source="business"
                      block={block}
                      onInsert={onInsert}
                      onDelete={business.canManage ? () => setRemoving(block) : undefined}
                    />
                  ))}
                </ul>
              ) : (
                <p className="muted">
                  {t(
                    business.canManage
                      ? 'editor.library.noBusinessBlocksAdmin'
                      : 'editor.library.noBusinessBlocks',
                  )}
                </p>
              ),
              'category-business-blocks',
            )}
          {others.map((item: LibraryCategory) =>
            category(String(item.id), item.name, item.icon, list(item.blocks), 'category'),
          )}
        </ul>
      )}
      {removing && <DeleteBusinessBlockModal block={removing} onClose={() => setRemoving(null)} />}
      {confirmDialog}
    </aside>
  );
}
