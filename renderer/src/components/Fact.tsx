/** One labelled number of a facts strip; the number may link to the calls behind it. */
import { Link } from '../app/router';
import './facts.css';

export function Fact({
  label,
  value,
  sub,
  href,
  testId,
}: {
  label: string;
  value: string;
  sub?: string;
  href?: string;
  testId?: string;
}) {
  return (
    <div className="fact" data-testid={testId}>
      <div className="fact-label">{label}</div>
      <div className="fact-value" title={value}>
        {href ? <Link href={href}>{value}</Link> : value}
      </div>
      {sub && <div className="fact-sub">{sub}</div>}
    </div>
  );
}
