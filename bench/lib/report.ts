/** One printed line: a figure, the baseline measured beside it in the same run, their ratio, the verdict. */
export interface Row {
  name: string;
  figure: number;
  unit: string;
  /** What the figure is compared with, measured in the same run; absent for sizes. */
  baseline?: { label: string; value: number; unit: string };
  /** figure ÷ baseline.value when there is a baseline. */
  ratio?: number;
  /** The target as text (`ratio ≥ 0.90`, `≤ 25 ms`) and whether this run met it (undefined: informative). */
  target: string;
  pass: boolean | undefined;
  /** A short remark printed after the verdict (rounds, errors seen). */
  note?: string;
}

function num(value: number, unit: string): string {
  if (!Number.isFinite(value)) return 'n/a';
  const small = Math.abs(value) < 10;
  const digits = unit === 's' || unit === 'KB' || (unit === 'ms' && small) ? 1 : unit === '' && small ? 3 : 0;
  return `${value.toFixed(digits)}${unit ? ` ${unit}` : ''}`;
}

/** `name: figure | baseline | ratio | target PASS/FAIL`, the shape every benchmark prints. */
export function formatRow(row: Row): string {
  const baseline = row.baseline
    ? `${row.baseline.label} ${num(row.baseline.value, row.baseline.unit)}`
    : 'baseline n/a';
  const ratio = row.ratio === undefined ? 'ratio n/a' : `ratio ${row.ratio.toFixed(2)}`;
  const note = row.note ? ` (${row.note})` : '';
  return `${row.name}: ${num(row.figure, row.unit)} | ${baseline} | ${ratio} | target ${row.target} ${row.pass === undefined ? 'INFO' : row.pass ? 'PASS' : 'FAIL'}${note}`;
}

export function median(values: number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Progress for the person running the benchmarks, on stderr so stdout holds only the result lines. */
export function progress(message: string): void {
  process.stderr.write(`  · ${message}\n`);
}
