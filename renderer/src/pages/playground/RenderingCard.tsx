/** One SDK's or one encoder's text for the input, its hash, and how it differs from canonical. */
import { TRAPS, type TrapHit } from '../../../../src/canonical/index';
import { DiffText } from './DiffText';

/** One rendering as a card: name, hash, its text diffed against canonical, and its traps. */
export function RenderingCard({
  name,
  label,
  text,
  argsHash,
  failure,
  traps,
  canonical,
  canonicalHash,
  dataAttr,
  note,
  sent,
}: {
  name: string;
  label: string;
  text: string | null;
  argsHash: string;
  failure: string | undefined;
  traps: TrapHit[];
  canonical: string | null;
  canonicalHash: string;
  /** `data-sdk` or `data-lang`, for tests and for styling. */
  dataAttr: Record<string, string>;
  /** A short line under the label: a version, or "no public source". */
  note?: string;
  /** `false`: nothing is sent at all (the host's parser refused the request). */
  sent?: boolean;
}) {
  const same = argsHash === canonicalHash;
  if (sent === false)
    return (
      <div className="pg-lang differs" {...dataAttr}>
        <div className="pg-lang-top">
          <span className="pg-lang-name">{name}</span>
          <span className="badge warn">not sent</span>
        </div>
        <div className="pg-lang-label" title={label}>
          {label}
        </div>
        {note && <div className="pg-lang-label faint">{note}</div>}
        <div className="pg-fail">{failure}</div>
      </div>
    );
  return (
    <div className={`pg-lang ${same ? 'same' : 'differs'}`} {...dataAttr}>
      <div className="pg-lang-top">
        <span className="pg-lang-name">{name}</span>
        <span className={`badge ${same ? 'ok' : 'warn'}`}>{same ? 'same hash' : 'differs'}</span>
        <code className="pg-lang-hash" title="the args_hash it sends">
          {argsHash}
        </code>
      </div>
      <div className="pg-lang-label" title={label}>
        {label}
      </div>
      {note && <div className="pg-lang-label faint">{note}</div>}
      {text === null ? (
        <div className="pg-fail">cannot hash: {failure}</div>
      ) : (
        <DiffText canonical={canonical} text={text} />
      )}
      {traps.length > 0 && (
        <ul className="pg-traps">
          {traps.map((t) => (
            <li key={t.trap} title={TRAPS[t.trap]}>
              <code>{t.example}</code> — {TRAPS[t.trap]}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
