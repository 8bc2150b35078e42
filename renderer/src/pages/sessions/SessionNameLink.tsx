/**
 * A call's session as a list shows it: the session's name (its label, else client → first
 * tool · time) linking to the session at that call, with the `s_…` id as secondary text in
 * the tooltip and for screen readers. Names, not ids, because 70 random ids read alike.
 */
import type { CallView } from '../../api/types';
import { Link } from '../../app/router';
import { callSessionTitle } from './session-title';

export function SessionNameLink({ call, href }: { call: CallView; href: string }) {
  const name = callSessionTitle(call);
  return (
    <Link
      href={href}
      className="session-name-link"
      title={`${name} · ${call.session_id}`}
      data-session={call.session_id}
      onClick={(e) => e.stopPropagation()}
    >
      <bdi className="trunc" dir="auto">
        {name}
      </bdi>
      {name !== call.session_id && <span className="sr-only"> (session {call.session_id})</span>}
    </Link>
  );
}
