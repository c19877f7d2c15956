/**
 * The value editor registry: which component edits each variable type. The one module that knows
 * every editor; `VarEditor` provides it to the `ValueEditor`s below it (a list's items included).
 */
import { ListEditor } from './ListEditor';
import { TableEditor } from './TableEditor';
import type { ValueEditorRegistry } from './ValueEditor';
import {
  BackgroundEditor,
  CheckboxEditor,
  ColorEditor,
  HeadingEditor,
  ImageEditor,
  LinkEditor,
  NumberEditor,
  OpacityEditor,
  PaddingEditor,
  RichTextEditor,
  SelectEditor,
  TextareaEditor,
  TextEditor,
  UnitEditor,
} from './value-editors';

export const valueEditors: ValueEditorRegistry = {
  text: TextEditor,
  textarea: TextareaEditor,
  richtext: RichTextEditor,
  image: ImageEditor,
  link: LinkEditor,
  color: ColorEditor,
  background: BackgroundEditor,
  unit: UnitEditor,
  heading: HeadingEditor,
  padding: PaddingEditor,
  opacity: OpacityEditor,
  number: NumberEditor,
  select: SelectEditor,
  checkbox: CheckboxEditor,
  list: ListEditor,
  table: TableEditor,
};
