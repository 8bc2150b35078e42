/**
 * The playground's compare mode (`/playground?mode=compare&a=<hash>&b=<hash>`): paste the
 * argument texts of two attempts and see whether each gives the hash the SDK sent, and what
 * differs between them, by path and character by character on the canonical forms. A retry
 * chain links here with its two hashes. Runs in this page; nothing typed is sent anywhere.
 */
import { useDeferredValue, useMemo, useState } from 'react';
import { analyze, diffText, JsonSyntaxError } from '../../../../src/canonical/index';
import { hrefOf, Link, useLocation } from '../../app/router';
import { compareTextsOf } from './compare-link';
import { pathChanges } from './compare-paths';
import './compare-args.css';

type Side =
  | { state: 'blank' }
  | { state: 'error'; message: string }
  | { state: 'ok'; hash: string; canonical: string | null; failure?: string };

function read(text: string): Side {
  if (!text.trim()) return { state: 'blank' };
  try {
    const a = analyze(text);
    return { state: 'ok', hash: a.argsHash, canonical: a.canonical, failure: a.failure };
  } catch (error) {
    if (error instanceof JsonSyntaxError)
      return {
        state: 'error',
        message: `${error.reason} (line ${error.line}, column ${error.column})`,
      };
    return { state: 'error', message: 'The engine could not analyse this text.' };
  }
}

const HASH = /^[0-9a-f]{12}$/;

export function CompareArgs() {
  const params = useLocation().params;
  const expectA = HASH.test(params.get('a') ?? '') ? params.get('a')! : null;
  const expectB = HASH.test(params.get('b') ?? '') ? params.get('b')! : null;
  const tool = params.get('tool');
  // A retry chain of a proxied session links here with both argument texts in the fragment.
  const [primed] = useState(() => compareTextsOf(window.location.hash));
  const [textA, setA] = useState(primed.a);
  const [textB, setB] = useState(primed.b);
  const a = useMemo(() => read(textA), [textA]);
  const b = useMemo(() => read(textB), [textB]);
  const deferredA = useDeferredValue(a);
  const deferredB = useDeferredValue(b);

  return (
    <div className="playground pg-compare">
      <div className="page-head">
        <Link href="/playground" className="crumb">
          Playground
        </Link>
        <span className="faint">/</span>
        <h1>Compare arguments</h1>
        <span className="sub">
          {tool ? (
            <>
              two attempts of <code>{tool}</code> ·{' '}
            </>
          ) : null}
          SDKs send only a hash of the arguments; paste both texts to see what changed — nothing you
          paste leaves this page
        </span>
      </div>
      <div className="pg-compare-io">
        <SideInput label="A" text={textA} onText={setA} side={a} expect={expectA} />
        <SideInput label="B" text={textB} onText={setB} side={b} expect={expectB} />
      </div>
      <Verdict a={deferredA} b={deferredB} />
    </div>
  );
}

function SideInput({
  label,
  text,
  onText,
  side,
  expect,
}: {
  label: string;
  text: string;
  onText: (t: string) => void;
  side: Side;
  expect: string | null;
}) {
  return (
    <section className="panel pg-compare-side" data-testid={`cmp-${label}`}>
      <header className="panel-head">
        <h2>Arguments {label}</h2>
        {expect && (
          <span className="muted small">
            the SDK sent <code>{expect}</code>
          </span>
        )}
      </header>
      <textarea
        className="pg-editor mono"
        value={text}
        onChange={(e) => onText(e.target.value)}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        aria-label={`Arguments ${label} as JSON`}
        placeholder={'{"query": "…"}'}
        data-testid={`cmp-input-${label}`}
      />
      <div className="pg-compare-hash" data-testid={`cmp-hash-${label}`}>
        {side.state === 'blank' && <span className="muted">Paste a JSON text.</span>}
        {side.state === 'error' && <span className="err-text">Not JSON: {side.message}</span>}
        {side.state === 'ok' && (
          <>
            <span className="pg-label">args_hash</span> <code>{side.hash}</code>{' '}
            {expect &&
              (side.hash === expect ? (
                <span className="badge ok" data-match="yes">
                  matches what the SDK sent
                </span>
              ) : (
                <span className="badge warn" data-match="no">
                  not {expect}: not these arguments, or an SDK that hashes differently
                </span>
              ))}
          </>
        )}
      </div>
    </section>
  );
}

function Verdict({ a, b }: { a: Side; b: Side }) {
  if (a.state !== 'ok' || b.state !== 'ok')
    return (
      <section className="panel pg-section">
        <div className="panel-body muted">
          Both texts are compared once each is valid JSON.{' '}
          <Link href={hrefOf('/playground', new URLSearchParams())}>
            Check one text across languages
          </Link>{' '}
          instead.
        </div>
      </section>
    );
  if (a.canonical === null || b.canonical === null)
    return (
      <section className="panel pg-section">
        <div className="panel-body" data-testid="cmp-result">
          No canonical form for {a.canonical === null ? 'A' : 'B'}: {a.failure ?? b.failure}. SDKs
          send 000000000000 for it, which compares with nothing.
        </div>
      </section>
    );
  const same = a.canonical === b.canonical;
  const changes = same ? [] : (pathChanges(a.canonical, b.canonical) ?? []);
  return (
    <section className="panel pg-section">
      <header className="panel-head">
        <h2>What changed</h2>
      </header>
      <div className="panel-body" data-testid="cmp-result">
        {same ? (
          <p className="cmp-same">
            Same canonical form, so the same args_hash: to MCPulse these are the same arguments (key
            order, whitespace and number spelling do not count). A second call with them is a
            repeat, not a retry.
          </p>
        ) : (
          <>
            <table className="data cmp-paths" data-testid="cmp-paths">
              <colgroup>
                <col className="cmp-w-path" />
                <col className="cmp-w-kind" />
                <col />
                <col />
              </colgroup>
              <thead>
                <tr>
                  <th>Path</th>
                  <th>Change</th>
                  <th>A</th>
                  <th>B</th>
                </tr>
              </thead>
              <tbody>
                {changes.map((c) => (
                  <tr key={c.path} className={c.kind}>
                    <td className="mono">{c.path}</td>
                    <td>{c.kind}</td>
                    <td className="mono">{c.before ?? '—'}</td>
                    <td className="mono">{c.after ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <div className="pg-label cmp-canon-label">Canonical forms, differences marked</div>
            <CanonDiff a={a.canonical} b={b.canonical} />
          </>
        )}
      </div>
    </section>
  );
}

function CanonDiff({ a, b }: { a: string; b: string }) {
  const parts = diffText(a, b);
  return (
    <div className="cmp-canon">
      <code className="pg-text" aria-label="Canonical form of A">
        {parts.map((p, i) =>
          p.op === 'insert' ? null : p.op === 'delete' ? (
            <del key={i}>{p.text}</del>
          ) : (
            <span key={i}>{p.text}</span>
          ),
        )}
      </code>
      <code className="pg-text" aria-label="Canonical form of B">
        {parts.map((p, i) =>
          p.op === 'delete' ? null : p.op === 'insert' ? (
            <ins key={i}>{p.text}</ins>
          ) : (
            <span key={i}>{p.text}</span>
          ),
        )}
      </code>
    </div>
  );
}
