/**
 * An error boundary around a pane that shows captured content. Content comes from whatever
 * server the proxy relayed, so it can be anything; if showing it ever throws, this pane says so
 * in one line (with the raw text to copy, when there is one) and the rest of the page keeps
 * working — before, one bad value unmounted the whole app and left a blank page.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { CopyButton } from './CopyButton';
import './states.css';

interface Props {
  /** What the pane shows, for the line ("The answer could not be shown"). */
  what: string;
  /** The raw text behind the pane, offered for copying when it fails. */
  raw?: string;
  /** A new key (another call, another message) tries again. */
  resetKey?: unknown;
  children: ReactNode;
}

interface State {
  error: Error | null;
  key: unknown;
}

export class ContentBoundary extends Component<Props, State> {
  override state: State = { error: null, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    // Another value to show: forget the last one's failure.
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`${this.props.what} could not be shown:`, error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className="content-failed warn-text small" role="alert" data-testid="content-failed">
        {this.props.what} could not be shown ({error.message.slice(0, 200)}). The rest of the page
        works.{' '}
        {this.props.raw !== undefined && <CopyButton text={this.props.raw} label="Copy raw" />}
      </div>
    );
  }
}
