/**
 * One analysis of an argument text, as a plain value that can cross to and from a Web Worker:
 * the engine's result, or where the text stops being JSON.
 */
import { analyze, JsonSyntaxError, type Analysis } from '../../../../src/canonical/index';

/** The analysis, or where the text stops being JSON (line and column 1-based). */
export type AnalysisResult =
  { ok: true; analysis: Analysis } | { ok: false; error: string; line?: number; column?: number };

/** Analyses one text with the canonical engine; never throws. */
export function runAnalysis(text: string): AnalysisResult {
  try {
    return { ok: true, analysis: analyze(text) };
  } catch (error) {
    if (error instanceof JsonSyntaxError)
      return { ok: false, error: error.reason, line: error.line, column: error.column };
    return { ok: false, error: 'The engine could not analyse this input.' };
  }
}
