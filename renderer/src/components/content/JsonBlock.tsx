/**
 * A JSON text shown indented, at any depth: the first SHOWN_JSON_DEPTH levels, and when it goes
 * deeper a note saying how many levels are left out with a button that copies the raw text
 * (what was sent, whole). Pretty-printing never recurses, so a hostile 10,000-deep answer reads
 * as its first levels and one line, never a stack overflow. Each value the server redacted
 * shows as a badge naming its kind.
 */
import { useMemo } from 'react';
import { CopyButton } from '../CopyButton';
import { fmtInt } from '../../lib/format';
import { prettyBody } from './messages';
import { RedactedText } from './Redacted';
import { SHOWN_JSON_DEPTH } from '../../../../src/shared/deep-json';
import './json-block.css';

export function JsonBlock({
  text,
  label,
  className,
  testId,
}: {
  /** The raw JSON text (or any text: shown as is when it is not JSON). */
  text: string;
  /** The block's accessible name. */
  label: string;
  className: string;
  testId?: string;
}) {
  const shown = useMemo(() => prettyBody(text), [text]);
  return (
    <>
      {shown.hiddenLevels > 0 && (
        <p className="json-depth-note warn-text small" data-testid="json-depth-note">
          <span>
            Nested {fmtInt(shown.depth)} levels deep: the first {SHOWN_JSON_DEPTH} are shown,{' '}
            {fmtInt(shown.hiddenLevels)} deeper levels not shown.
          </span>
          <CopyButton text={text} label="Copy raw" />
        </p>
      )}
      <pre className={className} tabIndex={0} aria-label={label} data-testid={testId}>
        <RedactedText text={shown.text} />
      </pre>
    </>
  );
}
