/** One labelled number of a facts strip; the number may link to the calls behind it. */
import { Link } from '../app/router';
import './facts.css';

export function Fact({
  label,
  value,
  sub,
  href,
  testId,
  title,
}: {
  label: string;
  value: string;
  sub?: string;
  href?: string;
  testId?: string;
  /** What the figure means, on hover (defaults to the figure itself). */
  title?: string;
}) {
  return (
    <div className="fact" data-testid={testId}>
      <div className="fact-label">{label}</div>
      <div className="fact-value" title={title ?? value}>
        {href ? <Link href={href}>{value}</Link> : value}
      </div>
      {sub && <div className="fact-sub">{sub}</div>}
    </div>
  );
}
