/** Paste the hash an SDK sent for these arguments: which encoder (and which trap) produced it. */
import { useMemo } from 'react';
import { explainHash, isArgsHash, type JsonNode } from '../../../../src/canonical/index';

export function HashDiagnosis({
  ast,
  hash,
  onHash,
}: {
  ast: JsonNode | null;
  hash: string;
  onHash: (h: string) => void;
}) {
  const given = hash.trim().toLowerCase();
  const valid = isArgsHash(given);
  const result = useMemo(
    () => (ast && valid ? explainHash(ast, given) : null),
    [ast, given, valid],
  );
  return (
    <div className="pg-diagnose">
      <label className="pg-label" htmlFor="pg-hash">
        Hash your SDK sent for these arguments
      </label>
      <input
        id="pg-hash"
        className="input mono pg-hash-input"
        placeholder="e.g. 83fbb23b7e85"
        value={hash}
        onChange={(e) => onHash(e.target.value)}
        spellCheck={false}
        autoComplete="off"
      />
      {given && !valid && (
        <div className="pg-note warn-text">An args_hash is 4–64 lowercase hex digits.</div>
      )}
      {given && valid && !ast && (
        <div className="pg-note muted">Fix the arguments above first.</div>
      )}
      {result && (
        <div
          className={`pg-verdict ${result.correct ? 'ok' : result.matches.length ? 'trap' : 'unknown'}`}
          data-testid="hash-verdict"
          role="status"
        >
          <div className="pg-verdict-summary">{result.summary}</div>
          {!result.correct && result.matches.length > 1 && (
            <ul className="pg-matches">
              {result.matches.map((m) => (
                <li key={m.id}>{m.label}</li>
              ))}
            </ul>
          )}
          {!result.correct && (
            <div className="pg-note muted">
              Canonical hash: <code>{result.canonical.argsHash}</code>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
