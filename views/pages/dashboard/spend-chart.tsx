import { shortMonth } from '@shared/calendar.js';
import { formatWholeMoney } from '@shared/format.js';

const WIDTH = 360;
const HEIGHT = 170;
const TOP = 14;
const BOTTOM = 22;
const LEFT = 4;

/** A round top for the scale: 1, 2 or 5 times a power of ten, at least the largest month. */
function scaleTop(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 5, 10].map((step) => step * power).find((top) => top >= max)!;
}

/**
 * Advertising spend per month as bars: plain SVG rendered on the server, so it is there at first paint and needs
 * no chart library. Screen readers get the same numbers as a table.
 */
export function SpendChart({
  months,
  locale,
  money,
}: {
  months: ReadonlyArray<{ month: string; total: string }>;
  locale: string;
  money(value: string): string;
}) {
  const values = months.map((entry) => Number(entry.total));
  const top = scaleTop(Math.max(0, ...values));
  const slot = (WIDTH - LEFT) / Math.max(1, months.length);
  const plotHeight = HEIGHT - TOP - BOTTOM;
  return (
    <figure className="spend-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} aria-hidden="true" focusable="false" className="spend-chart-svg">
        <line x1={LEFT} x2={WIDTH} y1={HEIGHT - BOTTOM} y2={HEIGHT - BOTTOM} className="spend-chart-axis" />
        <text x={WIDTH} y={10} textAnchor="end" className="spend-chart-scale">
          {/* Whole dollars on the scale; cents only for a scale under a dollar. */}
          {top >= 1 ? formatWholeMoney(top, { locale }) : money(String(top))}
        </text>
        <line x1={LEFT} x2={WIDTH} y1={TOP} y2={TOP} className="spend-chart-grid" />
        {months.map((entry, index) => {
          const height = Math.round((Number(entry.total) / top) * plotHeight);
          const x = LEFT + index * slot + slot * 0.18;
          return (
            <g key={entry.month}>
              {height > 0 && (
                <rect x={x} width={slot * 0.64} y={HEIGHT - BOTTOM - height} height={height} rx={2} className="spend-chart-bar">
                  <title>{`${shortMonth(entry.month, locale, true)}: ${money(entry.total)}`}</title>
                </rect>
              )}
              <text x={LEFT + index * slot + slot / 2} y={HEIGHT - 6} textAnchor="middle" className="spend-chart-label">
                {shortMonth(entry.month, locale)}
              </text>
            </g>
          );
        })}
      </svg>
      <table className="visually-hidden">
        <caption>Advertising spend by month</caption>
        <tbody>
          {months.map((entry) => (
            <tr key={entry.month}>
              <th scope="row">{shortMonth(entry.month, locale, true)}</th>
              <td>{money(entry.total)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
