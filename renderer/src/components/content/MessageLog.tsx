/**
 * The session's JSON-RPC messages, like DevTools' Network panel: every message the proxy
 * relayed in order (direction, time since the first, method, kind, id, size), filtered by
 * method, kind and text inside the bodies, and one request/answer pair opened side by side.
 * Resources, prompts, notifications and server-to-client requests are here, not only tool calls.
 * Long sessions are virtualized: only the rows on screen are in the DOM.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useDeferredValue, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useFilters } from '../../app/filters';
import { Link, useLocation } from '../../app/router';
import { MESSAGE_LOG_CAP, type MessageView } from '../../api/content';
import { fmtInt } from '../../lib/format';
import { ContentBoundary } from '../ContentBoundary';
import { Panel } from '../Panel';
import { ErrorState, Loading } from '../States';
import { MessagePairView } from './MessagePairView';
import { MessageToolbar } from './MessageToolbar';
import {
  bytesText,
  filterMessages,
  methodCounts,
  missingSeqs,
  NO_FILTER,
  offsetText,
  pairOf,
  type MessageFilter,
} from './messages';
import { mergeBySeq, useBeyondCap } from './useBeyondCap';
import { useSessionMessages } from './useSessionMessages';
import './message-log.css';

const ROW_H = 30;
/** Rows in view before the list scrolls. */
const MAX_ROWS_SHOWN = 12;

/** The message log of one proxied session (nothing for a session without messages). */
export function MessageLog({ sessionId }: { sessionId: string }) {
  const res = useSessionMessages(sessionId);
  if (res.error && !res.data)
    return (
      <Panel title="Messages">
        <ErrorState message={res.error} retry={res.refresh} />
      </Panel>
    );
  if (!res.data) return <Loading rows={4} />;
  if (res.data.messages.length === 0) return null;
  return <LoadedLog sessionId={sessionId} {...res.data} onRefresh={res.refresh} />;
}

function LoadedLog({
  sessionId,
  messages,
  total,
  capped,
  onRefresh,
}: {
  sessionId: string;
  messages: MessageView[];
  total: number;
  capped: boolean;
  onRefresh: () => void;
}) {
  const { link } = useFilters();
  const [filter, setFilter] = useState<MessageFilter>(NO_FILTER);
  const [selectedSeq, setSelectedSeq] = useState<number | null>(null);
  const deferred = useDeferredValue(filter);
  // Past the cap the browser holds only the start of the session: the server filters it all.
  const beyond = useBeyondCap(sessionId, deferred, capped);
  const local = useMemo(() => filterMessages(messages, deferred), [messages, deferred]);
  const shown = beyond.matches ?? local;
  const known = useMemo(() => mergeBySeq(messages, beyond.matches), [messages, beyond.matches]);
  const methods = useMemo(() => methodCounts(messages), [messages]);
  // Only a whole session can tell a missing seq from one not loaded yet.
  const missing = useMemo(
    () => (capped ? { seqs: [], count: 0 } : missingSeqs(messages)),
    [messages, capped],
  );
  const start = messages[0]?.at_ms ?? 0;
  const selected = known.find((m) => m.seq === selectedSeq);
  const pair = selected ? pairOf(known, selected) : undefined;

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_H,
    overscan: 12,
  });

  // `?msg=SEQ` (call details link here) opens that message: filters cleared, row in view.
  const linked = useLocation().params.get('msg');
  const logRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const at = linked === null ? -1 : messages.findIndex((m) => String(m.seq) === linked);
    if (at < 0) return;
    setFilter(NO_FILTER);
    setSelectedSeq(messages[at]!.seq);
    const timer = setTimeout(() => {
      virtual.scrollToIndex(at, { align: 'center' });
      logRef.current?.scrollIntoView({ block: 'start' });
    }, 50);
    return () => clearTimeout(timer);
    // Only a new link moves the log; the virtualizer is the same object between renders.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [linked, messages]);

  // Up/Down move between rows the way a list does; the row under focus is kept in view.
  const onKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    // From the row that has focus (Tab may have put it anywhere), else from the selection.
    const focused = (e.target as HTMLElement).closest<HTMLElement>('[data-seq]')?.dataset.seq;
    const from = focused === undefined ? selectedSeq : Number(focused);
    const at = shown.findIndex((m) => m.seq === from);
    const next = Math.max(0, Math.min(shown.length - 1, at + (e.key === 'ArrowDown' ? 1 : -1)));
    const m = shown[next];
    if (!m) return;
    e.preventDefault();
    setSelectedSeq(m.seq);
    virtual.scrollToIndex(next);
    requestAnimationFrame(() =>
      scrollRef.current?.querySelector<HTMLButtonElement>(`[data-seq="${m.seq}"]`)?.focus(),
    );
  };

  return (
    <Panel
      title={`Messages (${fmtInt(Math.max(total, messages.length))})`}
      flush
      actions={
        <button type="button" className="btn small" onClick={onRefresh}>
          Refresh
        </button>
      }
    >
      <div className="message-log" data-testid="message-log" ref={logRef}>
        <MessageToolbar
          filter={filter}
          onFilter={setFilter}
          methods={methods}
          shown={shown.length}
          total={Math.max(total, messages.length)}
        />
        {beyond.note && <p className="ml-note muted">{beyond.note}</p>}
        {missing.count > 0 && (
          <p className="ml-note muted" data-testid="ml-missing">
            {fmtInt(missing.count)} {missing.count === 1 ? 'message is' : 'messages are'} not in
            this log (#{missing.seqs.join(', #')}
            {missing.count > missing.seqs.length ? ', …' : ''}): one the proxy could not keep is on
            the <Link href={link('/ingest')}>Ingest log</Link> with the reason; one lost in relaying
            was never seen.
          </p>
        )}
        {capped && (
          <p className="ml-note muted">
            Showing the first {fmtInt(MESSAGE_LOG_CAP)} of {fmtInt(total)} messages of this session.
          </p>
        )}
        <div className="ml-head" aria-hidden="true">
          <span />
          <span className="ml-time">Time</span>
          <span>Method</span>
          <span>Kind</span>
          <span className="ml-id">Id</span>
          <span className="ml-size">Size</span>
        </div>
        <div
          ref={scrollRef}
          className="ml-scroll"
          role="list"
          aria-label="Messages in order"
          onKeyDown={onKey}
          data-testid="message-rows"
          // As tall as its rows, up to a screenful: a short session leaves no blank box.
          style={{ height: Math.min(MAX_ROWS_SHOWN, Math.max(1, shown.length)) * ROW_H + 2 }}
        >
          {shown.length === 0 ? (
            <div className="empty-row" role="listitem">
              No message matches these filters.
            </div>
          ) : (
            <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
              {virtual.getVirtualItems().map((row) => {
                const m = shown[row.index]!;
                return (
                  <div
                    key={m.seq}
                    role="listitem"
                    className="ml-item"
                    style={{ transform: `translateY(${row.start}px)`, height: ROW_H }}
                  >
                    <MessageRow
                      m={m}
                      offsetMs={m.at_ms - start}
                      selected={m.seq === selectedSeq}
                      onSelect={() => setSelectedSeq(m.seq === selectedSeq ? null : m.seq)}
                    />
                  </div>
                );
              })}
            </div>
          )}
        </div>
        {pair && (
          <ContentBoundary
            what="This request and answer"
            raw={pair.answer?.body ?? pair.request?.body}
            resetKey={selectedSeq}
          >
            <MessagePairView
              pair={pair}
              start={start}
              partial={capped}
              onClose={() => setSelectedSeq(null)}
            />
          </ContentBoundary>
        )}
      </div>
    </Panel>
  );
}

const ARROW = { client: '→', server: '←' } as const;
const FROM = { client: 'client to server', server: 'server to client' } as const;

function MessageRow({
  m,
  offsetMs,
  selected,
  onSelect,
}: {
  m: MessageView;
  offsetMs: number;
  selected: boolean;
  onSelect: () => void;
}) {
  return (
    <button
      type="button"
      className={`ml-row k-${m.kind}${selected ? ' selected' : ''}`}
      aria-pressed={selected}
      onClick={onSelect}
      data-seq={m.seq}
      data-kind={m.kind}
      data-method={m.method ?? ''}
      title={`#${m.seq} · ${FROM[m.direction]}`}
    >
      <span className={`ml-dir d-${m.direction}`}>
        <span aria-hidden="true">{ARROW[m.direction]}</span>
        <span className="sr-only">{FROM[m.direction]}</span>
      </span>
      <span className="ml-time mono">{offsetText(offsetMs)}</span>
      <span className="ml-method mono">
        {m.method ?? <span className="muted">(unknown)</span>}
        {m.body.includes('[redacted') && (
          <span className="ml-redacted" data-testid="ml-row-redacted">
            {' '}
            redacted
          </span>
        )}
      </span>
      <span className={`ml-kind kind-${m.kind}`}>{m.kind}</span>
      <span className="ml-id mono">{m.rpc_id ?? ''}</span>
      <span className="ml-size mono">
        {bytesText(m.bytes)}
        {m.truncated && <span className="ml-cut"> cut</span>}
      </span>
    </button>
  );
}
