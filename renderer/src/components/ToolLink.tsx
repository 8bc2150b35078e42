/**
 * A tool's name, linked to its page with the current filters: the one way a tool name reads
 * and links on every page. Inside a clickable row the click opens the tool, not the row.
 */
import { useFilters } from '../app/filters';
import { Link } from '../app/router';
import { Name } from './Name';

export function ToolLink({ name, className = '' }: { name: string; className?: string }) {
  const { link } = useFilters();
  return (
    <Link
      href={link('/tool', { name })}
      className={`tool-link ${className}`}
      data-tool-link={name}
      onClick={(e) => e.stopPropagation()}
    >
      <Name text={name} mono />
    </Link>
  );
}
