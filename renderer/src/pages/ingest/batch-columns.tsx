/** The Ingest log's request table as table-kit columns (components/table). */
import type { ReactNode } from 'react';
import type { Batch } from '../../api/types';
import type { Column } from '../../components/table/columns';
import { fmtAgo, fmtBytes, fmtDateTime, fmtInt } from '../../lib/format';

/** The columns; `status` draws a status code and `detail` a request's error (the page's own). */
export const batchColumns = (
  status: (code: number) => ReactNode,
  detail: (batch: Batch) => ReactNode,
): Column<Batch>[] => [
  {
    key: 'received',
    name: 'Received',
    header: 'Received',
    width: '96px',
    cellTitle: (b) => fmtDateTime(b.received_ms),
    cell: (b) => fmtAgo(b.received_ms),
  },
  {
    key: 'status',
    name: 'Status',
    header: 'Status',
    width: '64px',
    cell: (b) => status(b.status),
  },
  {
    key: 'key',
    name: 'Key',
    header: 'Key',
    width: '120px',
    hideBelow: 700,
    cellClass: 'mono',
    cellTitle: (b) => (b.project_ref ? `project ${b.project_ref}` : undefined),
    cell: (b) => b.key_prefix ?? <span className="faint">none</span>,
  },
  {
    key: 'stored',
    name: 'Stored',
    header: 'Stored',
    num: true,
    width: '64px',
    cell: (b) => fmtInt(b.accepted),
  },
  {
    key: 'rejected',
    name: 'Rejected',
    header: 'Rejected',
    num: true,
    width: '72px',
    cellClass: (b) => (b.rejected ? 'bad' : ''),
    cell: (b) => fmtInt(b.rejected),
  },
  {
    key: 'body',
    name: 'Body',
    header: 'Body',
    num: true,
    width: '72px',
    hideBelow: 600,
    cellTitle: (b) => `${fmtInt(b.body_bytes)} bytes`,
    cell: (b) => fmtBytes(b.body_bytes),
  },
  {
    key: 'detail',
    name: 'Error / client',
    header: 'Error / client',
    identifying: true,
    cell: (b) => detail(b),
  },
];
