/** One measured figure. `target` says what it must reach; `pass` is computed from it. */
export interface BenchFigure {
  suite: string;
  name: string;
  value: number;
  unit: string;
  /** A baseline measured in the same run, and value/baseline. */
  baseline?: { name: string; value: number };
  ratio?: number;
  target?: { op: '<=' | '>='; value: number; of: 'value' | 'ratio' };
  pass?: boolean;
  note?: string;
}

export interface BenchSuite {
  name: string;
  /** Heavy suites run only when named (`npm run bench -- scale`), never in a plain `npm run bench`. */
  optIn?: boolean;
  run(): Promise<BenchFigure[]>;
}

export function figure(f: Omit<BenchFigure, 'pass' | 'ratio'> & { ratio?: number }): BenchFigure {
  const ratio = f.ratio ?? (f.baseline ? f.value / f.baseline.value : undefined);
  let pass: boolean | undefined;
  if (f.target) {
    const measured = f.target.of === 'ratio' ? (ratio ?? NaN) : f.value;
    pass = f.target.op === '<=' ? measured <= f.target.value : measured >= f.target.value;
  }
  return { ...f, ...(ratio === undefined ? {} : { ratio }), ...(pass === undefined ? {} : { pass }) };
}

export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? NaN;
}
