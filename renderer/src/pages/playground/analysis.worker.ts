/**
 * The playground's canonicalisation, off the main thread: parse, canonicalise, hash and
 * diagnose each text it is sent, and post back the result with the request's id. On a 50 KB
 * input that is a few hundred milliseconds the textarea no longer waits for.
 */
import { diffsOf, type DiffParts } from './diff-cache';
import { runAnalysis, type AnalysisResult } from './run-analysis';

/** A text to analyse, numbered so the page can match the reply. */
export interface AnalysisRequest {
  id: number;
  text: string;
}

/** The analysis with each language's diff, or word that the result could not be copied back. */
export type AnalysisReply =
  | { id: number; result: AnalysisResult; diffs: Record<string, DiffParts> }
  | { id: number; uncloneable: true };

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<AnalysisRequest>) => void) | null;
  postMessage: (reply: AnalysisReply) => void;
};

scope.onmessage = (e) => {
  const { id, text } = e.data;
  const result = runAnalysis(text);
  // The parsed value is the engine's own intermediate: the page never reads it, and copying it
  // across would double the message.
  if (result.ok) result.analysis.value = undefined;
  try {
    scope.postMessage({ id, result, diffs: result.ok ? diffsOf(result.analysis) : {} });
  } catch {
    // A structure too deep to copy between threads: the page analyses this one itself.
    scope.postMessage({ id, uncloneable: true });
  }
};
