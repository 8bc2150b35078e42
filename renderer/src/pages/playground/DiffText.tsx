/** A rendering with the characters that differ from the canonical form highlighted. */
import { diffOf } from './diff-cache';

export function DiffText({ canonical, text }: { canonical: string | null; text: string }) {
  if (canonical === null || canonical === text) return <code className="pg-text">{text}</code>;
  const parts = diffOf(canonical, text);
  return (
    <code className="pg-text">
      {parts.map((p, i) =>
        p.op === 'equal' ? (
          <span key={i}>{p.text}</span>
        ) : p.op === 'insert' ? (
          <mark key={i} className="diff-ins" title="differs from the canonical form">
            {p.text}
          </mark>
        ) : (
          <span
            key={i}
            className="diff-del"
            title={`canonical has ${JSON.stringify(p.text)} here`}
          />
        ),
      )}
    </code>
  );
}
