import { css } from '@codemirror/lang-css';
import { html } from '@codemirror/lang-html';
import { javascript } from '@codemirror/lang-javascript';
import { EditorView, basicSetup } from 'codemirror';
import { useEffect, useRef, useState } from 'react';
import { useLatest } from '@/lib/use-latest';

const languages = { html, css, javascript };

interface Props {
  language: keyof typeof languages;
  /** Initial text; the editor owns it afterwards. */
  value: string;
  onChange: (text: string) => void;
  label: string;
  testId: string;
}

/**
 * A code editor for the source-code modal: CodeMirror 6 (maintained, modular, small when only
 * three languages are loaded, accessible and usable with the keyboard; a textarea has no
 * highlighting or indentation help). Loaded with the modal only, never on first load.
 */
export function CodeEditor({ language, value, onChange, label, testId }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const onChangeRef = useLatest(onChange);
  // Read once: the editor keeps its own document (and undo history) afterwards.
  const [initialDoc] = useState(value);

  useEffect(() => {
    if (!host.current) return;
    const view = new EditorView({
      doc: initialDoc,
      parent: host.current,
      extensions: [
        basicSetup,
        languages[language](),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ 'aria-label': label }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChangeRef.current(update.state.doc.toString());
        }),
      ],
    });
    return () => view.destroy();
  }, [language, label, initialDoc, onChangeRef]);

  return <div className="code-editor" ref={host} data-testid={testId} />;
}
