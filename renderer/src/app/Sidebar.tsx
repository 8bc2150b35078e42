/**
 * The left navigation: pages with their shortcuts, and at the bottom the listener's state and
 * any backlog of acknowledged calls still being applied.
 */
import { useFilters } from './filters';
import { NAV } from './nav';
import { Link, useLocation } from './router';
import { useAppData } from './status';
import { NavIcon } from '../components/NavIcon';
import { SpoolProgress } from './SpoolNotice';

export function Sidebar() {
  const loc = useLocation();
  const { link } = useFilters();
  const { status, statusError } = useAppData();
  return (
    <nav className="sidebar" aria-label="Pages">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        <span className="brand-name">MCPulse</span>
        <span className="brand-sub">Devtools</span>
      </div>
      <ul className="nav-list">
        {NAV.map((item) => {
          const active = loc.path === item.path || (item.also ?? []).includes(loc.path);
          return (
            <li key={item.path}>
              <Link
                href={link(item.path)}
                className={active ? 'nav-item active' : 'nav-item'}
                aria-current={active ? 'page' : undefined}
                title={`${item.label} (g then ${item.key})`}
              >
                <NavIcon name={item.path} />
                <span className="grow">{item.label}</span>
                <kbd aria-hidden="true">{item.key}</kbd>
              </Link>
            </li>
          );
        })}
      </ul>
      <div className="spacer" />
      <SpoolProgress />
      <div className="sidebar-foot">
        {statusError ? (
          <span className="listener down">
            <span className="dot" /> <span className="listener-text">server unreachable</span>
          </span>
        ) : status ? (
          <span className="listener up" title={`listening on ${status.addresses.join(', ')}`}>
            <span className="dot" />{' '}
            <span className="listener-text">listening on :{status.port}</span>
          </span>
        ) : null}
        <div className="faint">
          v{status?.version ?? '…'} · <kbd>?</kbd> shortcuts
        </div>
      </div>
    </nav>
  );
}
