/**
 * The analysis of the playground's text, computed in a Web Worker so typing never waits for
 * it. Only the newest text matters: while the worker is busy, further edits collapse into one
 * follow-up request, and a reply for an older text is dropped. Where a worker cannot start
 * (or cannot copy a result back), the page analyses in place, after a short pause in typing.
 */
import { startTransition, useEffect, useRef, useState } from 'react';
import type { AnalysisReply, AnalysisRequest } from './analysis.worker';
import { rememberDiffs } from './diff-cache';
import { runAnalysis, type AnalysisResult } from './run-analysis';

/** Typing pause before an in-page analysis (the fallback path only). */
const FALLBACK_DEBOUNCE_MS = 250;

interface WorkerState {
  worker: Worker | null;
  /** The text being analysed now, if any. */
  inFlight: string | null;
  /** The text waiting for the worker to be free. */
  pending: string | null;
  /** The newest text: only its analysis is shown. */
  wanted: string;
  nextId: number;
}

function startWorker(): Worker | null {
  try {
    return new Worker(new URL('./analysis.worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return null;
  }
}

function send(s: WorkerState, text: string): void {
  s.inFlight = text;
  s.worker!.postMessage({ id: s.nextId++, text } satisfies AnalysisRequest);
}

/** The analysis of `text`: the first one synchronously (so the page opens filled), then async. */
export function useAnalysis(text: string): { result: AnalysisResult; analysing: boolean } {
  const [state, setState] = useState(() => ({ text, result: runAnalysis(text) }));
  const ref = useRef<WorkerState>({
    worker: null,
    inFlight: null,
    pending: null,
    wanted: text,
    nextId: 1,
  });

  useEffect(() => {
    const s = ref.current;
    s.worker = startWorker();
    if (s.worker)
      s.worker.onmessage = (e: MessageEvent<AnalysisReply>) => {
        const done = s.inFlight!;
        s.inFlight = null;
        if (s.pending !== null) {
          send(s, s.pending);
          s.pending = null;
        }
        if (done !== s.wanted) return;
        const reply = e.data;
        const result = 'result' in reply ? reply.result : runAnalysis(done);
        if ('result' in reply && result.ok) rememberDiffs(result.analysis, reply.diffs);
        startTransition(() => setState({ text: done, result }));
      };
    return () => {
      s.worker?.terminate();
      s.worker = null;
    };
  }, []);

  useEffect(() => {
    const s = ref.current;
    s.wanted = text;
    if (text === state.text) return;
    if (!s.worker) {
      const timer = setTimeout(
        () => startTransition(() => setState({ text, result: runAnalysis(text) })),
        FALLBACK_DEBOUNCE_MS,
      );
      return () => clearTimeout(timer);
    }
    if (s.inFlight === null) send(s, text);
    else if (s.inFlight !== text) s.pending = text;
  }, [text, state.text]);

  return { result: state.result, analysing: text !== state.text };
}
