// Chart wrappers with one look: recharts without animation (stable screenshots, calmer screens).
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  LineChart,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { shortDate } from '../format';

export const COLORS = {
  primary: '#2f5fd0',
  secondary: '#0f9d8a',
  warn: '#d9822b',
  bad: '#c2413b',
  grid: '#e4e7ec',
  muted: '#98a2b3',
};

export interface Series {
  key: string;
  label: string;
  color: string;
  kind?: 'line' | 'bar';
  axis?: 'left' | 'right';
  format?: (value: number) => string;
  /** Axis ticks (shorter than tooltips); defaults to `format`. */
  tick?: (value: number) => string;
}

export function TimeChart(props: {
  title: string;
  data: readonly object[];
  xKey?: string;
  series: Series[];
  height?: number;
  reference?: { value: number; label: string };
  /** Vertical marks on the x axis (e.g. days a campaign was edited), labelled on hover. */
  markers?: readonly { x: string; label: string }[];
  /** A shaded span of the x axis (e.g. the baseline window a diagnostic compared against). */
  shade?: { from: string; to: string; label: string };
  xIsDate?: boolean;
}): React.JSX.Element {
  const xKey = props.xKey ?? 'date';
  const hasRight = props.series.some((s) => s.axis === 'right');
  const formatOf = (key: string): ((v: number) => string) =>
    props.series.find((s) => s.key === key)?.format ?? ((v) => String(v));
  const left = props.series.find((s) => s.axis !== 'right');
  const right = props.series.find((s) => s.axis === 'right');
  const leftTick = left?.tick ?? left?.format;
  const rightTick = right?.tick ?? right?.format;
  return (
    <figure className="chart" aria-label={props.title}>
      <figcaption>{props.title}</figcaption>
      <ResponsiveContainer width="100%" height={props.height ?? 240}>
        <ComposedChart
          data={props.data as object[]}
          margin={{ top: 8, right: hasRight ? 8 : 16, bottom: 0, left: 0 }}
        >
          <CartesianGrid stroke={COLORS.grid} vertical={false} />
          <XAxis
            dataKey={xKey}
            tickFormatter={props.xIsDate === false ? undefined : (v: string) => shortDate(v)}
            tick={{ fontSize: 12, fill: '#667085' }}
            minTickGap={24}
          />
          <YAxis
            yAxisId="left"
            tick={{ fontSize: 12, fill: '#667085' }}
            width={64}
            tickFormatter={leftTick}
          />
          {hasRight ? (
            <YAxis
              yAxisId="right"
              orientation="right"
              tick={{ fontSize: 12, fill: '#667085' }}
              width={56}
              tickFormatter={rightTick}
            />
          ) : null}
          <Tooltip
            formatter={(value, name) => {
              const series = props.series.find((s) => s.label === name);
              return typeof value === 'number' && series ? formatOf(series.key)(value) : String(value);
            }}
            labelFormatter={(label) => (props.xIsDate === false ? String(label) : shortDate(String(label)))}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {props.reference ? (
            <ReferenceLine
              yAxisId="left"
              y={props.reference.value}
              // A target above or below every value still shows: the axis stretches to it.
              ifOverflow="extendDomain"
              stroke={COLORS.bad}
              strokeDasharray="4 4"
              label={{
                value: props.reference.label,
                fontSize: 11,
                fill: COLORS.bad,
                position: 'insideTopRight',
              }}
            />
          ) : null}
          {props.shade ? (
            <ReferenceArea
              yAxisId="left"
              x1={props.shade.from}
              x2={props.shade.to}
              fill={COLORS.muted}
              fillOpacity={0.12}
              ifOverflow="visible"
              label={{ value: props.shade.label, fontSize: 11, fill: '#475467', position: 'insideTop' }}
            />
          ) : null}
          {(props.markers ?? []).map((m) => (
            <ReferenceLine
              key={`${m.x}-${m.label}`}
              yAxisId="left"
              x={m.x}
              stroke={COLORS.muted}
              strokeDasharray="2 3"
              label={{ value: m.label, fontSize: 10, fill: COLORS.muted, position: 'insideTopLeft' }}
            />
          ))}
          {props.series.map((s) =>
            s.kind === 'bar' ? (
              <Bar
                key={s.key}
                yAxisId={s.axis ?? 'left'}
                dataKey={s.key}
                name={s.label}
                fill={s.color}
                isAnimationActive={false}
                radius={[2, 2, 0, 0]}
              />
            ) : (
              <Line
                key={s.key}
                yAxisId={s.axis ?? 'left'}
                type="monotone"
                dataKey={s.key}
                name={s.label}
                stroke={s.color}
                strokeWidth={2}
                dot={false}
                connectNulls
                isAnimationActive={false}
              />
            ),
          )}
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}

export { LineChart };
