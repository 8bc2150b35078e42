/** Copies text; says "Copied" for a moment. Falls back to a selection when the API is denied. */
import { useState } from 'react';

export function CopyButton({
  text,
  label = 'Copy',
  className = '',
}: {
  text: string;
  label?: string;
  className?: string;
}) {
  const [done, setDone] = useState<'idle' | 'ok' | 'fail'>('idle');
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(text);
      setDone('ok');
    } catch {
      setDone('fail');
    }
    setTimeout(() => setDone('idle'), 1400);
  };
  return (
    <button
      type="button"
      className={`btn small ${className}`}
      onClick={() => void copy()}
      aria-label={`${label}: ${text.slice(0, 60)}`}
    >
      {done === 'ok' ? 'Copied' : done === 'fail' ? 'Press Ctrl+C' : label}
    </button>
  );
}
