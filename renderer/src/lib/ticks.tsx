/** Renders `backticked` spans of a plain sentence as <code>, everything else as text. */
export function Ticks({ text }: { text: string }) {
  return (
    <>
      {text
        .split('`')
        .map((part, i) =>
          i % 2 === 1 ? <code key={i}>{part}</code> : <span key={i}>{part}</span>,
        )}
    </>
  );
}
