/**
 * The canonical form, folded after a few lines: a 50 KB argument text would otherwise push
 * the hash diagnosis and everything below it off the screen. The full text stays one click
 * away (and in the copy button).
 */
import { useState } from 'react';
import { fmtCompact } from '../../lib/format';
import './canonical-text.css';

/** Texts up to this many characters are shown whole (about four wrapped lines). */
const FOLD_AFTER_CHARS = 240;

/** The canonical form, folded past {@link FOLD_AFTER_CHARS} characters until asked. */
export function CanonicalText({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  const long = text.length > FOLD_AFTER_CHARS;
  return (
    <>
      <code
        className={long && !open ? 'pg-text folded' : 'pg-text'}
        data-testid="pg-canonical"
        data-folded={long && !open}
      >
        {text}
      </code>
      {long && (
        <button
          type="button"
          className="btn small ghost pg-fold"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Fold' : `Show all (${fmtCompact(text.length)} characters)`}
        </button>
      )}
    </>
  );
}
