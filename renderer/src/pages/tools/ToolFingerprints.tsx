/**
 * The fingerprints newer SDKs send per tool in their startups: schema and description hashes
 * (did the interface or the wording change, and how often) and a declared policy (a model
 * declining a tool that needs authorization is right, not a discoverability problem).
 */
import type { ToolFingerprints } from '../../api/types';
import { fmtInt } from '../../lib/format';
import './tool-fingerprints.css';

const times = (n: number): string => (n === 1 ? 'once' : `${fmtInt(n)} times`);

/** One line under the tool's facts; nothing when no startup carried fingerprints. */
export function ToolFingerprintsLine({ fp }: { fp: ToolFingerprints | null | undefined }) {
  if (!fp) return null;
  const policy = fp.policy
    ? [
        fp.policy.requires_authorization && 'authorization',
        fp.policy.requires_verified_identity && 'a verified identity',
      ]
        .filter(Boolean)
        .join(' and ')
    : null;
  return (
    <p className="tool-fingerprints" data-testid="tool-fingerprints">
      {fp.schema_hash && (
        <span title="schema_hash: 12 hex of SHA-256 of the canonical input schema">
          schema <code>{fp.schema_hash}</code>
          {fp.schema_changes > 0 && <strong> changed {times(fp.schema_changes)}</strong>}
        </span>
      )}
      {fp.description_hash && (
        <span title="description_hash: the exact wording; description_norm: normalised">
          description <code>{fp.description_hash}</code>
          {fp.description_changes > 0 && <strong> reworded {times(fp.description_changes)}</strong>}
        </span>
      )}
      <span className="faint">
        across {fmtInt(fp.startups)} startup{fp.startups === 1 ? '' : 's'}
      </span>
      {policy && <span className="tool-policy">declared: needs {policy}</span>}
    </p>
  );
}
