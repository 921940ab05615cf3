// Vector charts drawn with react-pdf's SVG primitives (no raster images): a line/area chart and a bar
// chart over the report's days, with gridlines and axis labels set as real text.
import { Line, Path, Rect, Svg, Text, View } from '@react-pdf/renderer';
import { MUTED, RULE, tint } from './theme';

const AXIS_WIDTH = 46;
const LABEL_HEIGHT = 14;

/** A "nice" upper bound and step for 4 gridlines: 1, 2, 2.5 or 5 times a power of ten. */
export function niceScale(max: number, ticks = 4): { top: number; step: number } {
  if (!(max > 0)) return { top: ticks, step: 1 };
  const raw = max / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  return { top: step * ticks, step };
}

interface ChartProps {
  title: string;
  dates: string[];
  values: Array<number | null>;
  colour: string;
  width: number;
  height: number;
  formatTick: (value: number) => string;
  /** An x-axis date label, in the report's locale. */
  formatDate: (date: string) => string;
  /** Bars sit in bands (centred in equal slots); lines run edge to edge. */
  band?: boolean;
}

function Frame(props: ChartProps & { children: (plot: Plot) => React.JSX.Element[] }): React.JSX.Element {
  const { dates, values, width, height, formatTick } = props;
  const plotWidth = width - AXIS_WIDTH;
  const plotHeight = height - LABEL_HEIGHT;
  const { top, step } = niceScale(Math.max(0, ...values.map((v) => v ?? 0)));
  const plot: Plot = {
    width: plotWidth,
    height: plotHeight,
    x: (i) =>
      props.band
        ? ((i + 0.5) * plotWidth) / Math.max(1, dates.length)
        : dates.length <= 1
          ? plotWidth / 2
          : (i / (dates.length - 1)) * plotWidth,
    y: (v) => plotHeight - (v / top) * plotHeight,
  };
  const ticks = Array.from({ length: 5 }, (_, i) => i * step);
  const labelIndexes = xLabelIndexes(dates.length, width > 300 ? 6 : 4);
  return (
    <View wrap={false} style={{ width, marginBottom: 10 }}>
      <Text style={{ fontSize: 9, fontWeight: 'bold', marginBottom: 6 }}>{props.title}</Text>
      <View style={{ position: 'relative', width, height }}>
        {ticks.map((tick) => (
          <Text
            key={`y${tick}`}
            style={{
              position: 'absolute',
              left: 0,
              width: AXIS_WIDTH - 6,
              top: plot.y(tick) - 5,
              fontSize: 7,
              color: MUTED,
              textAlign: 'right',
            }}
          >
            {formatTick(tick)}
          </Text>
        ))}
        <Svg width={plotWidth} height={plotHeight} style={{ position: 'absolute', left: AXIS_WIDTH, top: 0 }}>
          {ticks.map((tick) => (
            <Line
              key={`g${tick}`}
              x1={0}
              x2={plotWidth}
              y1={plot.y(tick)}
              y2={plot.y(tick)}
              stroke={RULE}
              strokeWidth={tick === 0 ? 0.8 : 0.5}
            />
          ))}
          {props.children(plot)}
        </Svg>
        {labelIndexes.map((i) => (
          <Text
            key={`x${i}`}
            style={{
              position: 'absolute',
              top: plotHeight + 3,
              left: AXIS_WIDTH + plot.x(i) - 25,
              width: 50,
              fontSize: 7,
              color: MUTED,
              textAlign: 'center',
            }}
          >
            {props.formatDate(dates[i] ?? '')}
          </Text>
        ))}
      </View>
    </View>
  );
}

interface Plot {
  width: number;
  height: number;
  x: (index: number) => number;
  y: (value: number) => number;
}

/** Evenly spread label positions, always including the first and last day. */
export function xLabelIndexes(count: number, wanted: number): number[] {
  if (count <= 0) return [];
  if (count <= wanted) return Array.from({ length: count }, (_, i) => i);
  const out = new Set<number>();
  for (let k = 0; k < wanted; k += 1) out.add(Math.round((k * (count - 1)) / (wanted - 1)));
  return [...out];
}

/** Path segments of a series; a null value (no conversions, so no CPA) breaks the line. */
function segments(values: Array<number | null>, plot: Plot): Array<Array<[number, number]>> {
  const out: Array<Array<[number, number]>> = [];
  let current: Array<[number, number]> = [];
  values.forEach((v, i) => {
    if (v === null) {
      if (current.length > 0) out.push(current);
      current = [];
    } else current.push([plot.x(i), plot.y(v)]);
  });
  if (current.length > 0) out.push(current);
  return out;
}

const fixed = (n: number) => n.toFixed(2);

export function LineChart(props: Omit<ChartProps, 'children'> & { area?: boolean }): React.JSX.Element {
  return (
    <Frame {...props}>
      {(plot) =>
        segments(props.values, plot).flatMap((points, k) => {
          const line = points.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${fixed(x)} ${fixed(y)}`).join(' ');
          const first = points[0] ?? [0, 0];
          const last = points.at(-1) ?? [0, 0];
          const parts: React.JSX.Element[] = [];
          if (props.area && points.length > 1) {
            parts.push(
              <Path
                key={`a${k}`}
                d={`${line} L${fixed(last[0])} ${fixed(plot.height)} L${fixed(first[0])} ${fixed(plot.height)} Z`}
                fill={tint(props.colour, 0.82)}
              />,
            );
          }
          parts.push(
            points.length > 1 ? (
              <Path
                key={`l${k}`}
                d={line}
                stroke={props.colour}
                strokeWidth={1.4}
                fill="none"
                strokeLinejoin="round"
              />
            ) : (
              <Rect
                key={`p${k}`}
                x={first[0] - 1.2}
                y={first[1] - 1.2}
                width={2.4}
                height={2.4}
                fill={props.colour}
              />
            ),
          );
          return parts;
        })
      }
    </Frame>
  );
}

export function BarChart(props: Omit<ChartProps, 'children'>): React.JSX.Element {
  return (
    <Frame {...props} band>
      {(plot) => {
        const slot = plot.width / Math.max(1, props.values.length);
        const barWidth = Math.max(0.8, Math.min(slot * 0.7, 24));
        // All bars in one path: one node to lay out and paint instead of one per day.
        const d = props.values
          .map((v, i) => {
            const y = plot.y(v ?? 0);
            const height = plot.height - y;
            if (height <= 0) return '';
            const x = plot.x(i) - barWidth / 2;
            return `M${fixed(x)} ${fixed(y)} h${fixed(barWidth)} v${fixed(height)} h${fixed(-barWidth)} Z`;
          })
          .join(' ');
        return d ? [<Path key="bars" d={d} fill={props.colour} />] : [];
      }}
    </Frame>
  );
}
