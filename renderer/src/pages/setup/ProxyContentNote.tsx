/**
 * What the proxy keeps beyond an SDK's telemetry, said where a user sets it up: every JSON-RPC
 * message, kept in this machine's SQLite file only, with secrets redacted and big bodies capped,
 * and the flag that turns it off.
 */
import { DEFAULT_SECRET_KEYS, MESSAGE_BODY_CAP } from '../../../../src/shared/proxy-content';
import { useCli } from '../../app/cli';
import './proxy-content-note.css';

export function ProxyContentNote({ dbPath }: { dbPath?: string }) {
  const cli = useCli();
  return (
    <section className="proxy-content-note" data-testid="proxy-content-note">
      <h3>What the proxy captures</h3>
      <p className="muted small">
        Every JSON-RPC message in both directions — requests, answers, errors, notifications — with
        its direction, time, method, id and body, and what the client and the server said about
        themselves at <code>initialize</code>. The message log on a session page, the arguments and
        answers in call details and the causes on a tool page come from it.
      </p>
      <ul className="muted small">
        <li>
          Kept on this machine only, in the SQLite file{' '}
          {dbPath ? <code>{dbPath}</code> : 'of the dashboard'}; it travels on a local route, never
          in what an SDK sends, and never leaves the machine.
        </li>
        <li>
          Values of keys that look like secrets ({DEFAULT_SECRET_KEYS.slice(0, 5).join(', ')}, …)
          are replaced by <code>[redacted]</code> before they leave the proxy;{' '}
          <code>--redact-keys a,b</code> adds names. Bodies over {MESSAGE_BODY_CAP / 1024} KB are
          stored cut, with their size.
        </li>
        <li>
          <code>{cli('proxy --no-content')}</code> keeps no message bodies (the client and server
          names and the unanswered requests still go). Retention and Clear data remove content with
          its calls.
        </li>
      </ul>
    </section>
  );
}
