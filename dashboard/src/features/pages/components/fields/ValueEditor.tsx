/**
 * One input (or group) per variable type of docs/blocks.md, chosen from the value editor
 * registry: `registry.ts` maps each type to its editor, and `VarEditor` provides it (the one
 * place it is injected). An editor that shows values of other variables (a list's items) renders
 * `ValueEditor` again, so the editors never import each other.
 */
import { createContext, useContext, type ComponentType } from 'react';
import type { BlockVar, ValueChange, VarType } from '@/features/pages/types';

export interface ValueEditorProps {
  /** Unique id prefix for the inputs. */
  id: string;
  v: BlockVar;
  /** A new value (or a function of the value when the change lands). */
  onValue: (value: ValueChange) => void;
  /** Other changes to the definition (list sources, table columns). */
  onPatch: (patch: Partial<BlockVar>) => void;
  /** Shown in an empty text box (what the block shows instead: the site identity's value). */
  placeholder?: string;
}

/** The editor of each variable type. */
export type ValueEditorRegistry = Record<VarType, ComponentType<ValueEditorProps>>;

/** The registry the value editors below read; `VarEditor` provides `registry.ts`'s. */
export const ValueEditorsContext = createContext<ValueEditorRegistry | null>(null);

/** The editor of `v`'s type, or nothing for a type the registry has none for. */
export function ValueEditor(props: ValueEditorProps) {
  const registry = useContext(ValueEditorsContext);
  if (!registry) throw new Error('ValueEditor needs a ValueEditorsContext (VarEditor provides it)');
  const Editor = (registry as Partial<ValueEditorRegistry>)[props.v.type];
  return Editor ? <Editor {...props} /> : null;
}
