import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast, toast } from '@/components/toast';
import { Dialog } from '@/components/ui/Dialog';
import { errorMessage } from '@/lib/api-client';
import { useSaveBusinessBlock } from '@/lib/business-blocks/save-business-block';
import { useSaveLibraryBlock } from '@/features/pages/api/save-library-block';
import { useSaveMyBlock } from '@/features/pages/api/save-my-block';
import { sortCategories } from '@/features/pages/lib/block-search';
import { extractXVars, injectXVars } from '@/features/pages/lib/x-vars';
import type { BlockLibrary, BlockVar, PageBlock } from '@/features/pages/types';
import { CodeEditor } from './CodeEditor';

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

/** The library's block names, lower-cased, except `exceptId` (the block being overwritten). */
function libraryNames(library: BlockLibrary, exceptId: number | null): Set<string> {
  return new Set(
    library.categories.flatMap((category) =>
      category.blocks
        .filter((block) => block.id !== exceptId)
        .map((block) => block.name.trim().toLowerCase()),
    ),
  );
}

/** The business's block names, lower-cased, except `exceptId` (the block being overwritten). */
function businessNames(library: BlockLibrary, exceptId: number | null): Set<string> {
  return new Set(
    library.business_blocks
      .filter((item) => item.id !== exceptId)
      .map((item) => item.name.trim().toLowerCase()),
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
  const [myName, setMyName] = useState(block.name);
  const [myTarget, setMyTarget] = useState<number | null>(block.myblock_id ?? null);
  const categories = sortCategories(library.categories);
  const [libName, setLibName] = useState(block.name);
  const [libCategory, setLibCategory] = useState<number>(categories[0]?.id ?? 0);
  const [libImage, setLibImage] = useState(block.image ?? '');
  const [libTarget, setLibTarget] = useState<number | null>(null);
  const [bizName, setBizName] = useState(block.name);
  // Overwrite the business block this one came from, while the business's library still has it.
  const [bizTarget, setBizTarget] = useState<number | null>(
    () => library.business_blocks.find((item) => item.id === block.business_block_id)?.id ?? null,
  );
  const saveMine = useSaveMyBlock();
  const saveLibrary = useSaveLibraryBlock();
  const saveBusiness = useSaveBusinessBlock();

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

  const saveToMyBlocks = () => {
    if (!myName.trim()) {
      toast.error(t('editor.source.nameRequired'));
      return;
    }
    if (!parsed()) return;
    const body = { name: myName.trim(), css, js, template, ...(myTarget !== null ? { id: myTarget } : {}) };
    saveMine.mutate(body, {
      onSuccess: (saved) => {
        setMyTarget(saved.id);
        toast.success(t('editor.source.saved'));
      },
      onError: (error) => toast.error(errorMessage(error)),
    });
  };

  const saveToLibrary = () => {
    const name = libName.trim();
    if (!name) {
      toast.error(t('editor.source.nameRequired'));
      return;
    }
    if (libraryNames(library, libTarget).has(name.toLowerCase())) {
      toast.error(t('editor.source.nameExists'));
      return;
    }
    if (!parsed()) return;
    const body = {
      name,
      category_id: libCategory,
      image: libImage,
      css,
      js,
      template,
      ...(libTarget !== null ? { id: libTarget } : {}),
    };
    saveLibrary.mutate(body, {
      onSuccess: (saved) => {
        setLibTarget(saved.id);
        toast.success(t('editor.source.saved'));
      },
      onError: (error) => toast.error(errorMessage(error)),
    });
  };

  const saveToBusiness = () => {
    const name = bizName.trim();
    if (!name) {
      showToast(t('editor.source.nameRequired'), 'error');
      return;
    }
    if (businessNames(library, bizTarget).has(name.toLowerCase())) {
      showToast(t('editor.source.nameExists'), 'error');
      return;
    }
    if (!parsed()) return;
    saveBusiness.mutate(
      { ...(bizTarget !== null ? { id: bizTarget } : {}), block: { name, css, js, template } },
      {
        onSuccess: (saved) => {
          setBizTarget(saved.id);
          showToast(t('editor.source.savedBusiness', { name: saved.name }), 'success');
        },
        onError: (error) => showToast(errorMessage(error), 'error'),
      },
    );
  };

  const footer = (
    <div className="button-row">
      <button type="button" className="button" onClick={onClose}>
        {t('common.cancel')}
      </button>
      <button type="button" className="button button-primary" onClick={apply} data-testid="source-apply">
        {t('editor.source.apply')}
      </button>
    </div>
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
      <fieldset className="source-save" data-testid="source-my-blocks">
        <legend>{t('editor.source.myBlocks')}</legend>
        <label htmlFor="my-block-name">{t('editor.source.name')}</label>
        <input
          id="my-block-name"
          value={myName}
          onChange={(e) => setMyName(e.target.value)}
          data-testid="my-block-name"
        />
        <label htmlFor="my-block-target">{t('editor.source.saveAs')}</label>
        <select
          id="my-block-target"
          value={myTarget ?? ''}
          onChange={(e) => setMyTarget(e.target.value === '' ? null : Number(e.target.value))}
          data-testid="my-block-target"
        >
          <option value="">{t('editor.source.new')}</option>
          {library.my_blocks.map((mine) => (
            <option key={mine.id} value={mine.id}>
              {t('editor.source.overwrite', { name: mine.name })}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button"
          onClick={saveToMyBlocks}
          disabled={saveMine.isPending}
          data-testid="my-block-save"
        >
          {t('editor.source.saveMine')}
        </button>
      </fieldset>
      {canSaveToBusiness && (
        <fieldset className="source-save" data-testid="source-business">
          <legend>{t('editor.source.business')}</legend>
          <label htmlFor="biz-block-name">{t('editor.source.name')}</label>
          <input
            id="biz-block-name"
            value={bizName}
            onChange={(e) => setBizName(e.target.value)}
            data-testid="biz-block-name"
          />
          <label htmlFor="biz-block-target">{t('editor.source.saveAs')}</label>
          <select
            id="biz-block-target"
            value={bizTarget ?? ''}
            onChange={(e) => setBizTarget(e.target.value === '' ? null : Number(e.target.value))}
            data-testid="biz-block-target"
          >
            <option value="">{t('editor.source.new')}</option>
            {library.business_blocks.map((item) => (
              <option key={item.id} value={item.id}>
                {t('editor.source.overwrite', { name: item.name })}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="button"
            onClick={saveToBusiness}
            disabled={saveBusiness.isPending}
            data-testid="biz-block-save"
          >
            {t('editor.source.saveBusiness')}
          </button>
        </fieldset>
      )}
      {canSaveToLibrary && (
        <fieldset className="source-save" data-testid="source-library">
          <legend>{t('editor.source.library')}</legend>
          <label htmlFor="lib-block-name">{t('editor.source.name')}</label>
          <input
            id="lib-block-name"
            value={libName}
            onChange={(e) => setLibName(e.target.value)}
            data-testid="lib-block-name"
          />
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
          <label htmlFor="lib-block-target">{t('editor.source.saveAs')}</label>
          <select
            id="lib-block-target"
            value={libTarget ?? ''}
            onChange={(e) => setLibTarget(e.target.value === '' ? null : Number(e.target.value))}
            data-testid="lib-block-target"
          >
            <option value="">{t('editor.source.new')}</option>
            {categories.flatMap((category) =>
              category.blocks.map((item) => (
                <option key={item.id} value={item.id}>
                  {t('editor.source.overwrite', { name: `${category.name} / ${item.name}` })}
                </option>
              )),
            )}
          </select>
          <button
            type="button"
            className="button"
            onClick={saveToLibrary}
            disabled={saveLibrary.isPending}
            data-testid="lib-block-save"
          >
            {t('editor.source.saveLibrary')}
          </button>
        </fieldset>
      )}
    </Dialog>
  );
}
