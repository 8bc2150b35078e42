/**
 * Projects are keys, told apart by the key's SHA-256 (their ref); the 12-character key prefix
 * is only a label. When two keys share a prefix (`mp_live_local_dev` / `mp_live_local_x`), this
 * says so above the page, so nobody reads two servers' numbers as one.
 */
import type { Project } from '../api/types';
import { useAppData } from './status';
import './project-warning.css';

/** How a project is named in pickers: its key prefix, and its ref when the prefix is shared. */
export const projectLabel = (p: Pick<Project, 'key_prefix' | 'ref' | 'shares_prefix_with'>) =>
  p.shares_prefix_with.length > 0 ? `${p.key_prefix}… · ${p.ref}` : `${p.key_prefix}…`;

/**
 * The project a `project` URL value names: its ref, or — for links from before refs — a key
 * prefix only one project has (the server resolves the same way and refuses a shared one).
 */
export function findProject<P extends Pick<Project, 'ref' | 'key_prefix'>>(
  projects: readonly P[],
  value: string | undefined,
): P | undefined {
  if (!value) return undefined;
  const byRef = projects.find((p) => p.ref === value);
  if (byRef) return byRef;
  const byPrefix = projects.filter((p) => p.key_prefix === value.slice(0, 12));
  return byPrefix.length === 1 ? byPrefix[0] : undefined;
}

export function ProjectWarning() {
  const { projectWarnings } = useAppData();
  if (projectWarnings.length === 0) return null;
  return (
    <div className="project-warning" role="note" data-testid="project-prefix-warning">
      {projectWarnings.map((w) => (
        <p key={w.key_prefix}>
          <strong>
            {w.refs.length} keys share the prefix {w.key_prefix}.
          </strong>{' '}
          They are separate projects (refs {w.refs.join(', ')}); pick one in the Project menu to see
          its numbers alone.
        </p>
      ))}
    </div>
  );
}
