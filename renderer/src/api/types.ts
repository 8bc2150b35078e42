/**
 * The shapes pages use, by name. None is written by hand: each is the API's own answer
 * (`Api`, derived from the handlers' return types in src/api/handlers.ts) or a shape from
 * src/shared, imported type-only — so a change in a handler is a type error here, never a
 * silent drift. Nothing from the server is bundled.
 */
import type { Api } from '../../../src/api/handlers';

export type { Api };
export type { ApiName } from '../../../src/shared/api-routes';

// The outcome vocabulary is the app's one list (src/shared/outcomes.ts), under the names pages use.
export type { Outcome, OutcomeCounts } from '../../../src/shared/outcomes';
export {
  OUTCOME_CLASSES as OUTCOME_KEYS,
  OUTCOME_LABEL,
  outcomeClassOf as outcomeKey,
  type OutcomeClass as OutcomeKey,
} from '../../../src/shared/outcomes';
export type { SessionSort } from '../../../src/shared/session-sorts';
// The ingest spool's backlog (`GET /api/spool`, the `spool` event of `/api/stream`).
export type { SpoolState } from '../../../src/shared/spool';
// Raw rows, as the store returns them and the live stream carries them.
export type {
  BatchRow as Batch,
  CallRow as Call,
  RejectionRow as Rejection,
  StartupRow as Startup,
} from '../../../src/shared/rows';

// Core routes.
export type Status = Api['status'];
export type Project = Api['projects']['projects'][number];
/** Two or more projects one key prefix would name. */
export type ProjectPrefixWarning = Api['projects']['warnings'][number];
export type AgreementsAnswer = Api['agreements'];
export type AgreementPair = AgreementsAnswer['pairs'][number];
export type Agreement = AgreementsAnswer['agreements'][number];

// Metrics routes (docs/api.md "Metrics routes").
export type Summary = Api['summary'];
export type ToolSummary = Summary['tools'][number];
export type CostSummary = Summary['cost'];
export type FirstCallSuccess = Summary['first_call_success'];
export type Insight = Api['insights']['insights'][number];
export type Severity = Insight['severity'];
export type ClientRow = Api['clients']['clients'][number];
export type Pair = Api['pairs']['pairs'][number];
export type Timeseries = Api['timeseries'];
export type TimePoint = Timeseries['points'][number];
/** What an automatic range left out: calls dated by a wrong clock, or before the window. */
export type ClockOutliers = Timeseries['outliers'];
export type DatedGroup = NonNullable<ClockOutliers['past']>;
export type SessionPage = Api['sessions'];
export type SessionView = SessionPage['sessions'][number];
/** A session dated ahead of the server's clock (`future`) or before MCP existed (`past`). */
export type ClockSuspect = NonNullable<SessionView['clock_suspect']>;
export type SessionDetail = Api['session'];
/** What the session's startups said about the SDK (`null` from older SDKs). */
export type SdkFacts = SessionDetail['sdk'];
export type SessionStartup = SessionDetail['startups'][number];
/** A chain as the session detail sends it (without its calls, which are listed beside it). */
export type Chain = SessionDetail['chains'][number];
export type LatencySummary = SessionDetail['latency'];
export type ToolBreakdown = SessionDetail['tools'][number];
export type CompareResult = Api['compare'];
export type ChainView = Api['chains']['chains'][number];
export type ToolDetail = Api['tool'];
/** Per-tool startup fingerprints from newer SDKs (`null` when none were sent). */
export type ToolFingerprints = ToolDetail['fingerprints'];
export type SizesReport = Api['sizes'];
export type SizeBucketCount = SizesReport['response']['histogram'][number];
export type CallPage = Api['metricsCalls'];
/** A call of a list: the calls API adds what names its session (`session_name`). */
export type ListedCall = CallPage['calls'][number];
/** A call; session views of calls carry no `session_name` (the page names the session). */
export type CallView = Omit<ListedCall, 'session_name'> & Partial<Pick<ListedCall, 'session_name'>>;
export type LinkKind = CallView['link'];

// Settings and admin.
export type Pricing = Api['pricing'];
export type Retention = Api['retention'];
export type RetentionSettings = Pick<Retention, 'max_calls' | 'max_age_days'>;
export type RetentionPass = NonNullable<Retention['last_pass']>;
export type ClearResult = Api['clear'];
