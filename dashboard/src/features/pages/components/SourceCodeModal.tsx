import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/components/toast';
import { DialogActions } from '@/components/DialogActions';
import { Dialog } from '@/components/ui/Dialog';
import { errorMessage } from '@/lib/api-client';
import { useSaveBusinessBlock } from '@/lib/business-blocks/save-business-block';
import { useSaveLibraryBlock } from '@/features/pages/api/save-library-block';
import { useSaveMyBlock } from '@/features/pages/api/save-my-block';
import { sortCategories } from '@/features/pages/lib/block-search';
import { extractXVars, injectXVars } from '@/features/pages/lib/x-vars';
import type { BlockLibrary, BlockVar, PageBlock } from '@/features/pages/types';
import { CodeEditor } from './CodeEditor';
import { ActionButton } from '@/components/ActionButton';

export interface AppliedCode {
  template: string;
  css: string;
  js: string;
  vars: BlockVar[];
}

interface Props {
  block: PageBlock;
  library: BlockLibrary;
  /** is_admin: may save to the global library (platform administrators only). */
  canSaveToLibrary: boolean;
  /** is_business_admin in a business: may save to the business's own library. */
  canSaveToBusiness: boolean;
  onApply: (code: AppliedCode) => void;
  onClose: () => void;
}

/** The blocks' names, lower-cased, except `exceptId` (the block being overwritten). */
function namesExcept(blocks: { id: number; name: string }[], exceptId: number | null): Set<string> {
  return new Set(blocks.filter((item) => item.id !== exceptId).map((item) => item.name.trim().toLowerCase()));
}

/** What a save to one place needs of its mutation: the saved block comes back with its id. */
interface SaveMutation<B, S> {
  mutate: (body: B, handlers: { onSuccess: (saved: S) => void; onError: (error: unknown) => void }) => void;
  isPending: boolean;
}

/** One place to save the code to: its mutation, and the name and target being typed and picked. */
function useSavePlace<B, S>(mutation: SaveMutation<B, S>, initialName: string, initialTarget: number | null) {
  const [name, setName] = useState(initialName);
  /** The block it overwrites; null saves a new one. */
  const [target, setTarget] = useState(initialTarget);
  return { mutation, name, setName, target, setTarget };
}

/** A place as its section shows it. */
interface SavePlace {
  name: string;
  setName: (name: string) => void;
  target: number | null;
  setTarget: (target: number | null) => void;
  mutation: { isPending: boolean };
}

/** The places: `my` (My Blocks), `biz` (the business's library), `lib` (the global library). */
const PLACES = {
  my: { testId: 'source-my-blocks', legend: 'editor.source.myBlocks', save: 'editor.source.saveMine' },
  biz: { testId: 'source-business', legend: 'editor.source.business', save: 'editor.source.saveBusiness' },
  lib: { testId: 'source-library', legend: 'editor.source.library', save: 'editor.source.saveLibrary' },
} as const;

interface SaveSectionProps {
  /** Also the prefix of its controls' ids and test ids. */
  kind: keyof typeof PLACES;
  place: SavePlace;
  /** The blocks it may overwrite, each with the name it is listed under. */
  targets: { id: number; name: string }[];
  onSave: () => void;
  /** Settings between the name and the target (the library's category and image). */
  children?: ReactNode;
}

/** One place to save the code to: a name, what it saves as (new, or a block to overwrite), Save. */
function SaveSection({ kind, place, targets, onSave, children }: SaveSectionProps) {
  const { t } = useTranslation();
  return (
    <fieldset className="source-save" data-testid={PLACES[kind].testId}>
      <legend>{t(PLACES[kind].legend)}</legend>
      <label htmlFor={`${kind}-block-name`}>{t('editor.source.name')}</label>
      <input
        id={`${kind}-block-name`}
        value={place.name}
        onChange={(e) => place.setName(e.target.value)}
        data-testid={`${kind}-block-name`}
      />
      {children}
      <label htmlFor={`${kind}-block-target`}>{t('editor.source.saveAs')}</label>
      <select
        id={`${kind}-block-target`}
        value={place.target ?? ''}
        onChange={(e) => place.setTarget(e.target.value === '' ? null : Number(e.target.value))}
        data-testid={`${kind}-block-target`}
      >
        <option value="">{t('editor.source.new')}</option>
        {targets.map((item) => (
          <option key={item.id} value={item.id}>
            {t('editor.source.overwrite', { name: item.name })}
          </option>
        ))}
      </select>
      <ActionButton onClick={onSave} disabled={place.mutation.isPending} testId={`${kind}-block-save`}>
        {t(PLACES[kind].save)}
      </ActionButton>
    </fieldset>
  );
}

/**
 * The source-code modal (spec §2, §4, §5): HTML (with the block's definitions back in its
 * x-vars attribute), CSS and JS. Apply checks x-vars first ('x-vars error: ' and the reason).
 * Save in My Blocks creates one or overwrites the one picked; platform admins can also save to
 * the global library, and business admins to their business's library (name required, and
 * new names unique ignoring case within the library).
 */
export default function SourceCodeModal({
  block,
  library,
  canSaveToLibrary,
  canSaveToBusiness,
  onApply,
  onClose,
}: Props) {
  const { t } = useTranslation();
  const [template, setTemplate] = useState(() => injectXVars(block.template, block.vars));
  const [css, setCss] = useState(block.css);
  const [js, setJs] = useState(block.js);
  const categories = sortCategories(library.categories);
  const [libCategory, setLibCategory] = useState<number>(categories[0]?.id ?? 0);
  const [libImage, setLibImage] = useState(block.image ?? '');
  const mine = useSavePlace(useSaveMyBlock(), block.name, block.myblock_id ?? null);
  const lib = useSavePlace(useSaveLibraryBlock(), block.name, null);
  // Overwrite the business block this one came from, while the business's library still has it.
  const biz = useSavePlace(
    useSaveBusinessBlock(),
    block.name,
    library.business_blocks.find((item) => item.id === block.business_block_id)?.id ?? null,
  );

  /** The definitions, or null after alerting why they can't be read. */
  const parsed = () => {
    const result = extractXVars(template);
    if (!result.ok) {
      toast.error(t('editor.source.xVarsError') + result.reason);
      return null;
    }
    return result;
  };

  const apply = () => {
    const result = parsed();
    if (!result) return;
    onApply({ template: result.template, css, js, vars: result.vars });
    onClose();
  };

  /**
   * Saves to `place` once its name is given, not `taken` there, and the definitions read; the
   * saved block is then the one it overwrites.
   */
  const saveTo = <B, S extends { id: number }>(
    place: { name: string; setTarget: (id: number) => void; mutation: SaveMutation<B, S> },
    taken: Set<string>,
    body: (name: string) => B,
    saved: (block: S) => string,
  ) => {
    const name = place.name.trim();
    if (!name) {
      toast.error(t('editor.source.nameRequired'));
      return;
    }
    if (taken.has(name.toLowerCase())) {
      toast.error(t('editor.source.nameExists'));
      return;
    }
    if (!parsed()) return;
    place.mutation.mutate(body(name), {
      onSuccess: (block) => {
        place.setTarget(block.id);
        toast.success(saved(block));
      },
      onError: (error) => toast.error(errorMessage(error)),
    });
  };
  const withId = (target: number | null) => (target !== null ? { id: target } : {});

  const saveToMyBlocks = () =>
    saveTo(
      mine,
      new Set(),
      (name) => ({ name, css, js, template, ...withId(mine.target) }),
      () => t('editor.source.saved'),
    );

  const saveToLibrary = () =>
    saveTo(
      lib,
      namesExcept(
        library.categories.flatMap((category) => category.blocks),
        lib.target,
      ),
      (name) => ({
        name,
        category_id: libCategory,
        image: libImage,
        css,
        js,
        template,
        ...withId(lib.target),
      }),
      () => t('editor.source.saved'),
    );

  const saveToBusiness = () =>
    saveTo(
      biz,
      namesExcept(library.business_blocks, biz.target),
      (name) => ({ ...withId(biz.target), block: { name, css, js, template } }),
      (saved) => t('editor.source.savedBusiness', { name: saved.name }),
    );

  const libraryBlocks = categories.flatMap((category) =>
    category.blocks.map((item) => ({ id: item.id, name: `${category.name} / ${item.name}` })),
  );

  const footer = (
    <DialogActions
      onCancel={onClose}
      actionLabel={t('editor.source.apply')}
      onAction={apply}
      actionTestId="source-apply"
    />
  );

  return (
    <Dialog
      title={t('editor.source.title', { name: block.name })}
      onClose={onClose}
      footer={footer}
      testId="source-modal"
      size="wide"
    >
      <div className="source-editors">
        <section>
          <h3>HTML</h3>
          <CodeEditor
            language="html"
            value={template}
            onChange={setTemplate}
            label="HTML"
            testId="source-html"
          />
        </section>
        <section>
          <h3>CSS</h3>
          <CodeEditor language="css" value={css} onChange={setCss} label="CSS" testId="source-css" />
        </section>
        <section>
          <h3>JS</h3>
          <CodeEditor language="javascript" value={js} onChange={setJs} label="JS" testId="source-js" />
        </section>
      </div>
      <SaveSection kind="my" place={mine} targets={library.my_blocks} onSave={saveToMyBlocks} />
      {canSaveToBusiness && (
        <SaveSection kind="biz" place={biz} targets={library.business_blocks} onSave={saveToBusiness} />
      )}
      {canSaveToLibrary && (
        <SaveSection kind="lib" place={lib} targets={libraryBlocks} onSave={saveToLibrary}>
          <label htmlFor="lib-block-category">{t('editor.source.category')}</label>
          <select
            id="lib-block-category"
            value={libCategory}
            onChange={(e) => setLibCategory(Number(e.target.value))}
            data-testid="lib-block-category"
          >
            {categories.map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </select>
          <label htmlFor="lib-block-image">{t('editor.source.image')}</label>
          <input
            id="lib-block-image"
            value={libImage}
            onChange={(e) => setLibImage(e.target.value)}
            data-testid="lib-block-image"
          />
        </SaveSection>
      )}
    </Dialog>
  );
}
