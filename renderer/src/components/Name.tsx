/**
 * Arbitrary text from the wire (tool names, clients, session ids): rendered as text, one line,
 * ellipsis, the full value in the title, its own bidi context so RTL text cannot reorder the
 * row around it.
 */
export function Name({
  text,
  className = '',
  mono = false,
}: {
  text: string;
  className?: string;
  mono?: boolean;
}) {
  return (
    <bdi className={`trunc ${mono ? 'mono' : ''} ${className}`} title={text} dir="auto">
      {text === '' ? '(empty)' : text}
    </bdi>
  );
}
