/** One labelled group of bars (e.g. "MiniLM-L6 fp32": ours, Python onnxruntime, CrossEncoder). */
export interface BarGroup {
  readonly label: string;
  readonly bars: readonly { readonly series: string; readonly value: number | undefined }[];
}

export interface BarPanel {
  readonly title: string;
  readonly groups: readonly BarGroup[];
}

const COLORS = ['#2b6cb0', '#dd6b20', '#718096', '#38a169', '#805ad5'];
const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Horizontal grouped bar chart as a standalone SVG (no plotting dependency); one panel per model so a
 * 10x faster model does not flatten the other's bars. Missing values are drawn as "n/a".
 */
export function groupedBarChartSvg(title: string, unit: string, panels: readonly BarPanel[]): string {
  const series = [...new Set(panels.flatMap((p) => p.groups.flatMap((g) => g.bars.map((b) => b.series))))];
  const width = 820;
  const labelWidth = 150;
  const plotWidth = width - labelWidth - 90;
  const barHeight = 16;
  const out: string[] = [];
  let y = 50;
  out.push(`<text x="${width / 2}" y="24" text-anchor="middle" font-size="16" font-weight="bold">${escape(title)}</text>`);
  series.forEach((name, i) => {
    const x = labelWidth + i * 190;
    out.push(`<rect x="${x}" y="34" width="12" height="12" fill="${COLORS[i % COLORS.length]}"/>`);
    out.push(`<text x="${x + 16}" y="44" font-size="12">${escape(name)}</text>`);
  });
  y += 14;
  for (const panel of panels) {
    const max = Math.max(1e-9, ...panel.groups.flatMap((g) => g.bars.map((b) => b.value ?? 0)));
    out.push(`<text x="10" y="${y + 12}" font-size="14" font-weight="bold">${escape(panel.title)}</text>`);
    y += 22;
    for (const group of panel.groups) {
      const groupTop = y;
      for (const bar of group.bars) {
        const color = COLORS[series.indexOf(bar.series) % COLORS.length];
        const length = bar.value === undefined ? 0 : (bar.value / max) * plotWidth;
        out.push(`<rect x="${labelWidth}" y="${y}" width="${length.toFixed(1)}" height="${barHeight - 3}" fill="${color}"/>`);
        const text = bar.value === undefined ? 'n/a' : `${bar.value.toFixed(bar.value < 100 ? 1 : 0)} ${unit}`;
        out.push(`<text x="${labelWidth + length + 4}" y="${y + barHeight - 5}" font-size="11">${escape(text)}</text>`);
        y += barHeight;
      }
      out.push(`<text x="${labelWidth - 8}" y="${(groupTop + y) / 2 + 4}" text-anchor="end" font-size="12">${escape(group.label)}</text>`);
      y += 8;
    }
    y += 10;
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y}" viewBox="0 0 ${width} ${y}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    ...out,
    '</svg>',
    '',
  ].join('\n');
}
