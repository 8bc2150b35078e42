/**
 * `GET /api/projects`: the keys seen, identified by their ref (the first 12 hex of the key's
 * SHA-256 — what `?project=` takes), labelled by their key prefix, with a warning wherever two
 * keys share a prefix (README-style keys such as `mp_live_local_dev` / `mp_live_local_x` do).
 *
 * Bounded whatever was sent (issue 19: 60,000 one-shot keys made a 12 MB answer): at most
 * `limit` projects, the most recently seen first, with `total` saying how many there are; at
 * most {@link MAX_WARNINGS} prefix warnings, each naming up to {@link MAX_REFS} refs.
 */
import { projectRef, type ReadStore } from '../store/index.js';
import type { ProjectRow } from '../shared/rows.js';

/** Projects listed when the caller does not say (`?limit=`), and the most it may ask for. */
export const DEFAULT_PROJECTS = 500;
export const MAX_PROJECTS = 5_000;
/** Prefix warnings listed at most, and refs named in each. */
export const MAX_WARNINGS = 50;
export const MAX_REFS = 20;

/** One project as the API shows it: never the full digest, never the key. */
export interface ProjectView extends Omit<ProjectRow, 'key_sha256'> {
  /** The id to select it by (`?project=`, `--project`): stable across databases. */
  ref: string;
  /** Same as `ref` (the name earlier versions used). */
  key_fingerprint: string;
  /** Refs of other projects whose key has the same 12-character prefix (up to {@link MAX_REFS}). */
  shares_prefix_with: string[];
}

/** Two or more projects that one key prefix would name. */
export interface PrefixWarning {
  key_prefix: string;
  /** Up to {@link MAX_REFS} of them, most recently seen first. */
  refs: string[];
  /** How many projects share it. */
  projects: number;
  message: string;
}

/** The projects (at most `limit`), how many there are, and the prefix warnings. */
export function projectsView(
  store: ReadStore,
  limit = DEFAULT_PROJECTS,
): { projects: ProjectView[]; total: number; warnings: PrefixWarning[] } {
  const rows = store.read.projects(limit);
  const total = store.read.counts().projects;
  const shared = store.read.sharedPrefixes(MAX_WARNINGS, MAX_REFS + 1);
  const byPrefix = new Map(shared.map((s) => [s.key_prefix, s.keySha256s.map(projectRef)]));
  const projects = rows.map(({ key_sha256, ...p }) => {
    const ref = projectRef(key_sha256);
    return {
      ...p,
      ref,
      key_fingerprint: ref,
      shares_prefix_with: (byPrefix.get(p.key_prefix) ?? [])
        .filter((r) => r !== ref)
        .slice(0, MAX_REFS),
    };
  });
  const warnings = shared.map(({ key_prefix, projects: n }) => {
    const refs = byPrefix.get(key_prefix)!.slice(0, MAX_REFS);
    const more = n > refs.length ? `, and ${n - refs.length} more` : '';
    return {
      key_prefix,
      refs,
      projects: n,
      message: `${n} keys share the prefix ${key_prefix}: they are separate projects — select one by its ref (${refs.join(', ')}${more}), not by the prefix`,
    };
  });
  return { projects, total, warnings };
}
