/**
 * `GET /api/projects`: every key seen, identified by its ref (the first 12 hex of the key's
 * SHA-256 — what `?project=` takes), labelled by its key prefix, with a warning wherever two
 * keys share a prefix (README-style keys such as `mp_live_local_dev` / `mp_live_local_x` do).
 */
import { projectRef } from '../store/index.js';
import type { ProjectRow } from '../shared/rows.js';

/** One project as the API shows it: never the full digest, never the key. */
export interface ProjectView extends Omit<ProjectRow, 'key_sha256'> {
  /** The id to select it by (`?project=`, `--project`): stable across databases. */
  ref: string;
  /** Same as `ref` (the name earlier versions used). */
  key_fingerprint: string;
  /** Refs of the other projects whose key has the same 12-character prefix. */
  shares_prefix_with: string[];
}

/** Two or more projects that one key prefix would name. */
export interface PrefixWarning {
  key_prefix: string;
  refs: string[];
  message: string;
}

/** The projects and the prefix warnings. */
export function projectsView(rows: ProjectRow[]): {
  projects: ProjectView[];
  warnings: PrefixWarning[];
} {
  const byPrefix = new Map<string, string[]>();
  for (const r of rows) {
    const refs = byPrefix.get(r.key_prefix) ?? [];
    refs.push(projectRef(r.key_sha256));
    byPrefix.set(r.key_prefix, refs);
  }
  const projects = rows.map(({ key_sha256, ...p }) => {
    const ref = projectRef(key_sha256);
    return {
      ...p,
      ref,
      key_fingerprint: ref,
      shares_prefix_with: byPrefix.get(p.key_prefix)!.filter((r) => r !== ref),
    };
  });
  const warnings = [...byPrefix]
    .filter(([, refs]) => refs.length > 1)
    .map(([key_prefix, refs]) => ({
      key_prefix,
      refs,
      message: `${refs.length} keys share the prefix ${key_prefix}: they are separate projects — select one by its ref (${refs.join(', ')}), not by the prefix`,
    }));
  return { projects, warnings };
}
