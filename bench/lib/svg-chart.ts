/**
 * A line chart as a standalone SVG string, written by hand (no chart library): x and y
 * axes (y optionally logarithmic), grid lines, one polyline with markers per series, and a
 * legend. Points with a non-finite or (on a log axis) non-positive y are left out.
 */
export interface Series {
  name: string;
  points: [number, number][];
  dashed?: boolean;
}

export interface ChartSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  logY?: boolean;
  logX?: boolean;
  width?: number;
  height?: number;
}

const COLORS = [
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#ff7f0e',
  '#9467bd',
  '#8c564b',
  '#17becf',
  '#7f7f7f',
];

const esc = (s: string) =>
  s
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

function niceTicks(min: number, max: number, log: boolean): number[] {
  if (log) {
    const ticks: number[] = [];
    for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++)
      ticks.push(10 ** e);
    return ticks;
  }
  const span = max - min || 1;
  const step = 10 ** Math.floor(Math.log10(span / 5));
  const mult = [1, 2, 5, 10].find((m) => span / (step * m) <= 6) ?? 10;
  const s = step * mult;
  const ticks: number[] = [];
  for (let t = Math.floor(min / s) * s; t <= max + s / 2; t += s)
    ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

function label(v: number): string {
  if (v >= 1000) return `${Number((v / 1000).toPrecision(3))}k`;
  if (v < 1 && v > 0) return String(Number(v.toPrecision(2)));
  return String(Number(v.toPrecision(3)));
}

export function lineChart(spec: ChartSpec): string {
  const width = spec.width ?? 720;
  const height = spec.height ?? 420;
  const m = { left: 70, right: 200, top: 40, bottom: 55 };
  const ok = (p: [number, number]) =>
    Number.isFinite(p[0]) &&
    Number.isFinite(p[1]) &&
    (!spec.logY || p[1] > 0) &&
    (!spec.logX || p[0] > 0);
  const series = spec.series.map((s) => ({ ...s, points: s.points.filter(ok) }));
  const all = series.flatMap((s) => s.points);
  const xs = all.map((p) => p[0]);
  const ys = all.map((p) => p[1]);
  let [xMin, xMax] = xs.length ? [Math.min(...xs), Math.max(...xs)] : [0, 1];
  let [yMin, yMax] = ys.length ? [Math.min(...ys), Math.max(...ys)] : [1, 10];
  if (!spec.logX) xMin = Math.min(0, xMin);
  if (!spec.logY) yMin = Math.min(0, yMin);
  const xTicks = niceTicks(xMin, xMax === xMin ? xMin + 1 : xMax, spec.logX ?? false);
  const yTicks = niceTicks(yMin, yMax === yMin ? yMin * 10 || 1 : yMax, spec.logY ?? false);
  [xMin, xMax] = [Math.min(xMin, xTicks[0] ?? xMin), Math.max(xMax, xTicks.at(-1) ?? xMax)];
  [yMin, yMax] = [Math.min(yMin, yTicks[0] ?? yMin), Math.max(yMax, yTicks.at(-1) ?? yMax)];
  const f = (log: boolean | undefined) => (v: number) => (log ? Math.log10(v) : v);
  const fx = f(spec.logX);
  const fy = f(spec.logY);
  const pw = width - m.left - m.right;
  const ph = height - m.top - m.bottom;
  const X = (v: number) => m.left + ((fx(v) - fx(xMin)) / (fx(xMax) - fx(xMin) || 1)) * pw;
  const Y = (v: number) => m.top + ph - ((fy(v) - fy(yMin)) / (fy(yMax) - fy(yMin) || 1)) * ph;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${m.left + pw / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">${esc(spec.title)}</text>`,
  ];
  for (const t of yTicks) {
    const y = Y(t).toFixed(1);
    out.push(`<line x1="${m.left}" x2="${m.left + pw}" y1="${y}" y2="${y}" stroke="#e5e5e5"/>`);
    out.push(
      `<text x="${m.left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${label(t)}</text>`,
    );
  }
  for (const t of xTicks) {
    const x = X(t).toFixed(1);
    out.push(`<line x1="${x}" x2="${x}" y1="${m.top}" y2="${m.top + ph}" stroke="#f0f0f0"/>`);
    out.push(`<text x="${x}" y="${m.top + ph + 16}" text-anchor="middle">${label(t)}</text>`);
  }
  out.push(
    `<rect x="${m.left}" y="${m.top}" width="${pw}" height="${ph}" fill="none" stroke="#333"/>`,
    `<text x="${m.left + pw / 2}" y="${height - 12}" text-anchor="middle">${esc(spec.xLabel)}</text>`,
    `<text transform="translate(16 ${m.top + ph / 2}) rotate(-90)" text-anchor="middle">${esc(spec.yLabel)}${spec.logY ? ' (log scale)' : ''}</text>`,
  );
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length] ?? '#000';
    const pts = [...s.points].sort((a, b) => a[0] - b[0]);
    const dash = s.dashed ? ' stroke-dasharray="6 4"' : '';
    if (pts.length > 1) {
      const d = pts.map((p) => `${X(p[0]).toFixed(1)},${Y(p[1]).toFixed(1)}`).join(' ');
      out.push(`<polyline points="${d}" fill="none" stroke="${color}" stroke-width="2"${dash}/>`);
    }
    for (const p of pts) {
      out.push(
        `<circle cx="${X(p[0]).toFixed(1)}" cy="${Y(p[1]).toFixed(1)}" r="3.5" fill="${color}"/>`,
      );
    }
    const ly = m.top + 10 + i * 20;
    const lx = m.left + pw + 14;
    out.push(
      `<line x1="${lx}" x2="${lx + 24}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="2"${dash}/>`,
    );
    out.push(`<text x="${lx + 30}" y="${ly}" dominant-baseline="middle">${esc(s.name)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
