/**
 * Ingest log: every request received and every item dropped, with production's reason — what
 * the hosted API would have thrown away silently, made visible.
 */
import { useCallback, useMemo, useState } from 'react';
import { corePaths } from '../../api/core';
import type { Batch, Rejection } from '../../api/types';
import { useFilters } from '../../app/filters';
import { useAppData } from '../../app/status';
import { Panel } from '../../components/Panel';
import { ErrorState, Loading, NoDataYet, StaleBanner } from '../../components/States';
import { useListNav } from '../../hooks/useHotkeys';
import { useApi } from '../../hooks/useApi';
import { DataTable } from '../../components/table/DataTable';
import { batchColumns } from './batch-columns';
import { fmtDateTime, fmtInt, plural } from '../../lib/format';
import { Name } from '../../components/Name';
import { prettyJson } from '../../components/content/messages';
import './ingest.css';

const BATCH_COLUMNS = batchColumns(
  (code) => <StatusBadge status={code} />,
  (b) => <BatchError batch={b} />,
);

export function IngestPage() {
  const { filters } = useFilters();
  const { hasData } = useAppData();
  const [batchId, setBatchId] = useState<number | undefined>();
  const batches = useApi(corePaths.batches(filters, 500));
  const rejections = useApi(corePaths.rejections(filters, 500, batchId));
  const rows = useMemo(() => batches.data?.batches ?? [], [batches.data]);
  const open = useCallback((i: number) => setBatchId(rows[i]?.id), [rows]);
  const [selected, setSelected] = useListNav(rows.length, open);

  if (hasData === false) return <NoDataYet />;
  if (batches.error && !batches.data) return <ErrorState message={batches.error} />;
  const totals = rows.reduce(
    (t, b) => ({
      accepted: t.accepted + b.accepted,
      rejected: t.rejected + b.rejected,
      refused: t.refused + (b.status >= 400 ? 1 : 0),
    }),
    { accepted: 0, rejected: 0, refused: 0 },
  );

  return (
    <div className="ingest">
      <div className="page-head">
        <h1>Ingest log</h1>
        <span className="sub" data-testid="ingest-summary">
          {plural(rows.length, 'request')} · {plural(totals.accepted, 'item')} stored ·{' '}
          {plural(totals.rejected, 'item')} rejected · {plural(totals.refused, 'request')} refused
        </span>
      </div>
      {batches.error && <StaleBanner message={batches.error} />}
      <div className="grid ingest-grid">
        <Panel title="Requests" flush>
          {!batches.data ? (
            <Loading />
          ) : (
            <DataTable
              label="Requests"
              className="tall"
              testId="batches"
              columns={BATCH_COLUMNS}
              rows={rows}
              rowKey={(b) => b.id}
              selected={rows.findIndex((b, i) => i === selected || b.id === batchId)}
              onSelect={(i) => {
                setSelected(i);
                setBatchId(rows[i]!.id === batchId ? undefined : rows[i]!.id);
              }}
              copyValue={(b) => b}
              empty={<div className="empty-row">No requests for this project yet.</div>}
            />
          )}
        </Panel>
        <Panel
          title={batchId ? `Rejected items in request #${batchId}` : 'Rejected items'}
          actions={
            batchId ? (
              <button className="btn small" onClick={() => setBatchId(undefined)}>
                Show all
              </button>
            ) : null
          }
          flush
        >
          <RejectionList rejections={rejections.data?.rejections} error={rejections.error} />
        </Panel>
      </div>
    </div>
  );
}

/**
 * What went wrong with a request, and what to change: a request that missed `/v1/ingest` names
 * its method and path; a hint (the base URL to give, the content type to send) follows the
 * reason; identical refusals counted on the row say how many.
 */
function BatchError({ batch: b }: { batch: Batch }) {
  if (!b.error) return <Name text={b.user_agent ?? ''} className="faint" />;
  return (
    <div className="batch-error" data-testid={b.path ? 'misdirected-row' : undefined}>
      {b.path && (
        <code className="batch-path">
          {b.method} {b.path}
        </code>
      )}{' '}
      <span className="err-text" title={b.error}>
        {b.error}
      </span>
      {b.repeats > 1 && (
        <span
          className="badge warn"
          title={b.last_received_ms ? `last ${fmtDateTime(b.last_received_ms)}` : undefined}
        >
          ×{fmtInt(b.repeats)}
        </span>
      )}
      {b.hint && <div className="batch-hint">{b.hint}</div>}
      {b.path && b.user_agent && <div className="faint small">from {b.user_agent}</div>}
    </div>
  );
}

function StatusBadge({ status }: { status: number }) {
  const tone = status < 300 ? 'ok' : status === 429 || status === 413 ? 'warn' : 'danger';
  return <span className={`badge ${tone}`}>{status}</span>;
}

function RejectionList({
  rejections,
  error,
}: {
  rejections: Rejection[] | undefined;
  error: string | undefined;
}) {
  if (error && !rejections) return <ErrorState message={error} />;
  if (!rejections) return <Loading />;
  if (rejections.length === 0)
    return <div className="empty-row">Nothing rejected. Every item sent was valid and stored.</div>;
  return (
    <ul className="rejections" data-testid="rejections">
      {rejections.map((r) => (
        <li key={r.id}>
          <div className="rej-head">
            <span className="badge danger">dropped</span>
            <span className="rej-reason" title={r.reason}>
              {r.reason}
            </span>
            <span className="faint" title={fmtDateTime(r.received_ms)}>
              #{r.batch_id}
              {r.item_index !== null ? ` · item ${r.item_index}` : ' · whole request'}
            </span>
          </div>
          <details>
            <summary>Item as sent{r.truncated ? ' (truncated)' : ''}</summary>
            <pre className="rej-item">{prettyItem(r.item)}</pre>
          </details>
        </li>
      ))}
    </ul>
  );
}

/** A refused item indented (any depth: deeper levels are said, not recursed into). */
const prettyItem = (text: string): string => prettyJson(text);
