/** A labelled setting: the input, its unit, the allowed range, and the server's objection. */
import { useId, type ReactNode } from 'react';

export function Field({
  label,
  value,
  onChange,
  prefix,
  suffix,
  hint,
  error,
  testId,
  inputMode = 'numeric',
}: {
  label: string;
  value: string;
  onChange: (text: string) => void;
  prefix?: string;
  suffix?: string;
  hint?: ReactNode;
  error?: string;
  testId: string;
  inputMode?: 'numeric' | 'decimal' | 'text';
}) {
  const id = useId();
  return (
    <div className={error ? 'field invalid' : 'field'}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="field-control">
        {prefix && <span className="field-affix">{prefix}</span>}
        <input
          id={id}
          className="input field-input"
          value={value}
          inputMode={inputMode}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint ${id}-error`}
          data-testid={`${testId}-input`}
          onChange={(e) => onChange(e.target.value)}
        />
        {suffix && <span className="field-affix">{suffix}</span>}
      </div>
      {error && (
        <div
          className="field-error"
          id={`${id}-error`}
          role="alert"
          data-testid={`${testId}-error`}
        >
          {error}
        </div>
      )}
      <div className="field-hint" id={`${id}-hint`}>
        {hint}
      </div>
    </div>
  );
}
