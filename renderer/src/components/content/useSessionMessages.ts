/**
 * A session's messages, kept up to date while the session runs: read whole once, then, on each
 * live bump (new calls arrived), only the messages after the last one held are asked for and
 * appended — an hours-long session is never reread. `refresh` rereads it all.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  contentPaths,
  fetchSessionMessages,
  MESSAGE_LOG_CAP,
  type MessageView,
} from '../../api/content';
import { getApi } from '../../api/api';
import { describeError } from '../../api/http';
import { onLiveBump } from '../../api/live';

export interface SessionMessages {
  messages: MessageView[];
  total: number;
  capped: boolean;
}

/** Minimum gap between two live reads of the tail. */
const TAIL_GAP_MS = 1000;

export function useSessionMessages(sessionId: string): {
  data: SessionMessages | undefined;
  error: string | undefined;
  refresh: () => void;
} {
  const [data, setData] = useState<SessionMessages>();
  const [error, setError] = useState<string>();
  const [generation, setGeneration] = useState(0);
  const held = useRef<SessionMessages | undefined>(undefined);
  const heldFor = useRef(sessionId);

  useEffect(() => {
    const abort = new AbortController();
    held.current = undefined;
    // Another session's log never stays on screen; a refresh of this one keeps it until the answer.
    if (heldFor.current !== sessionId) {
      heldFor.current = sessionId;
      setData(undefined);
    }
    fetchSessionMessages(sessionId, abort.signal).then(
      (d) => {
        held.current = d;
        setData(d);
        setError(undefined);
      },
      (e: unknown) => {
        if (!abort.signal.aborted) setError(describeError(e));
      },
    );
    let busy = false;
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const readTail = async (): Promise<void> => {
      const now = held.current;
      if (!now || now.capped || busy) return;
      busy = true;
      last = Date.now();
      try {
        let after = now.messages.at(-1)?.seq ?? null;
        const fresh: MessageView[] = [];
        let total = now.total;
        for (;;) {
          const page = await getApi(contentPaths.messages(sessionId, after), abort.signal);
          fresh.push(...page.messages);
          total = page.total;
          after = page.next_after_seq;
          if (after === null || now.messages.length + fresh.length >= MESSAGE_LOG_CAP) break;
        }
        if (fresh.length > 0 && held.current === now) {
          const messages = [...now.messages, ...fresh];
          held.current = { messages, total, capped: messages.length >= MESSAGE_LOG_CAP };
          setData(held.current);
        }
      } catch {
        // A missed tail is read on the next bump; the log on screen stays as it is.
      } finally {
        busy = false;
      }
    };
    const off = onLiveBump(() => {
      clearTimeout(timer);
      timer = setTimeout(() => void readTail(), Math.max(0, last + TAIL_GAP_MS - Date.now()));
    });
    return () => {
      abort.abort();
      clearTimeout(timer);
      off();
    };
  }, [sessionId, generation]);

  const refresh = useCallback(() => setGeneration((g) => g + 1), []);
  return { data, error, refresh };
}
