/**
 * What newer SDKs say about each tool in a startup (PHP 0.1.6, `Describe.php`, `Policy.php`):
 * `schema_hash` (did the interface change?), `description_hash` (did the wording change?),
 * `description_norm` (is it the same description, normalised?) — each 12 hex of SHA-256 — and
 * `policy` (the author declared that the tool needs authorization or a verified identity, so a
 * model declining it is right). Kept as the tool's extra fields; read here leniently.
 */
import type Database from 'better-sqlite3';

/** A tool's fingerprints in its latest startup, and how often they changed across startups. */
export interface ToolFingerprints {
  schema_hash: string | null;
  description_hash: string | null;
  description_norm: string | null;
  policy: { requires_authorization: boolean; requires_verified_identity: boolean } | null;
  /** Startups (newest first, at most 100) that listed the tool with a fingerprint. */
  startups: number;
  /** Times the schema hash differed from the startup before it. */
  schema_changes: number;
  /** Times the exact description hash differed from the startup before it. */
  description_changes: number;
}

const HASH = /^[0-9a-f]{4,64}$/;
const hashOf = (v: unknown): string | null => (typeof v === 'string' && HASH.test(v) ? v : null);

function policyOf(v: unknown): ToolFingerprints['policy'] {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
  const p = v as Record<string, unknown>;
  const auth = p.requires_authorization ?? p.requiresAuthorization;
  const identity = p.requires_verified_identity ?? p.requiresVerifiedIdentity;
  if (auth !== true && identity !== true) return null;
  return { requires_authorization: auth === true, requires_verified_identity: identity === true };
}

const changes = (values: (string | null)[]): number => {
  const seen = values.filter((v): v is string => v !== null);
  let n = 0;
  for (let i = 1; i < seen.length; i++) if (seen[i] !== seen[i - 1]) n++;
  return n;
};

/** The fingerprints of `tool` (in one project, or all); `null` when no startup carried any. */
export function toolFingerprints(
  db: Database.Database,
  projectId: number | undefined,
  tool: string,
): ToolFingerprints | null {
  const rows = db
    .prepare<{ tool: string; projectId: number | null }, { extra: string }>(
      `SELECT st.extra FROM startup_tools st JOIN startups s ON s.id = st.startup_id
       WHERE st.name = @tool AND st.extra IS NOT NULL
         AND (@projectId IS NULL OR s.project_id = @projectId)
       ORDER BY st.startup_id DESC LIMIT 100`,
    )
    .all({ tool, projectId: projectId ?? null });
  const parsed = rows
    .map((r) => JSON.parse(r.extra) as Record<string, unknown>)
    .map((e) => ({
      schema: hashOf(e.schema_hash),
      description: hashOf(e.description_hash),
      norm: hashOf(e.description_norm),
      policy: policyOf(e.policy),
    }))
    .filter((e) => e.schema || e.description || e.norm || e.policy);
  const latest = parsed[0];
  if (!latest) return null;
  // Oldest first, so a change is counted where it happened.
  const ordered = [...parsed].reverse();
  return {
    schema_hash: latest.schema,
    description_hash: latest.description,
    description_norm: latest.norm,
    policy: latest.policy,
    startups: parsed.length,
    schema_changes: changes(ordered.map((e) => e.schema)),
    description_changes: changes(ordered.map((e) => e.description)),
  };
}
