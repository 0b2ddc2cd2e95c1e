/** One line of a chart: points with x and y > 0 (both axes are logarithmic). */
export interface ChartLine {
  readonly label: string;
  readonly points: readonly { readonly x: number; readonly y: number }[];
}

export interface ChartPanel {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly lines: readonly ChartLine[];
  /** Horizontal reference lines (e.g. "15 minutes"). */
  readonly marks?: readonly { readonly label: string; readonly y: number }[];
}

const COLORS = ['#2b6cb0', '#dd6b20', '#38a169', '#805ad5', '#718096', '#d53f8c', '#319795'];
const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const tick = (v: number): string => (v >= 1e6 ? `${v / 1e6}M` : v >= 1e3 ? `${v / 1e3}k` : v >= 1 ? String(v) : v.toPrecision(1));

/** Log-log line charts side by side as one standalone SVG (no plotting dependency). */
export function logLogChartSvg(title: string, panels: readonly ChartPanel[]): string {
  const panelWidth = 430;
  const panelHeight = 300;
  const margin = { left: 62, right: 16, top: 56, bottom: 48 };
  const width = panels.length * (panelWidth + margin.left + margin.right);
  const legendRows = Math.max(...panels.map((p) => p.lines.length));
  const height = margin.top + panelHeight + margin.bottom + legendRows * 16 + 10;
  const out: string[] = [`<text x="${width / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">${escape(title)}</text>`];
  panels.forEach((panel, index) => {
    const ox = index * (panelWidth + margin.left + margin.right) + margin.left;
    const oy = margin.top;
    const xs = panel.lines.flatMap((l) => l.points.map((p) => p.x));
    const ys = [...panel.lines.flatMap((l) => l.points.map((p) => p.y)), ...(panel.marks ?? []).map((m) => m.y)].filter((y) => y > 0);
    const [x0, x1] = [Math.floor(Math.log10(Math.min(...xs))), Math.ceil(Math.log10(Math.max(...xs)))];
    const [y0, y1] = [Math.floor(Math.log10(Math.min(...ys))), Math.ceil(Math.log10(Math.max(...ys)))];
    const px = (x: number): number => ox + ((Math.log10(x) - x0) / Math.max(1, x1 - x0)) * panelWidth;
    const py = (y: number): number => oy + panelHeight - ((Math.log10(y) - y0) / Math.max(1, y1 - y0)) * panelHeight;
    out.push(
      `<text x="${ox + panelWidth / 2}" y="${oy - 12}" text-anchor="middle" font-size="13" font-weight="bold">${escape(panel.title)}</text>`,
    );
    out.push(`<rect x="${ox}" y="${oy}" width="${panelWidth}" height="${panelHeight}" fill="none" stroke="#a0aec0"/>`);
    for (let e = x0; e <= x1; e++) {
      const x = px(10 ** e);
      out.push(`<line x1="${x}" y1="${oy}" x2="${x}" y2="${oy + panelHeight}" stroke="#edf2f7"/>`);
      out.push(`<text x="${x}" y="${oy + panelHeight + 16}" text-anchor="middle" font-size="11">${tick(10 ** e)}</text>`);
    }
    for (let e = y0; e <= y1; e++) {
      const y = py(10 ** e);
      out.push(`<line x1="${ox}" y1="${y}" x2="${ox + panelWidth}" y2="${y}" stroke="#edf2f7"/>`);
      out.push(`<text x="${ox - 6}" y="${y + 4}" text-anchor="end" font-size="11">${tick(10 ** e)}</text>`);
    }
    out.push(
      `<text x="${ox + panelWidth / 2}" y="${oy + panelHeight + 36}" text-anchor="middle" font-size="12">${escape(panel.xLabel)}</text>`,
    );
    out.push(
      `<text x="${ox - 48}" y="${oy + panelHeight / 2}" text-anchor="middle" font-size="12" transform="rotate(-90 ${ox - 48} ${oy + panelHeight / 2})">${escape(panel.yLabel)}</text>`,
    );
    for (const mark of panel.marks ?? []) {
      const y = py(mark.y);
      out.push(`<line x1="${ox}" y1="${y}" x2="${ox + panelWidth}" y2="${y}" stroke="#e53e3e" stroke-dasharray="4 3"/>`);
      out.push(`<text x="${ox + 4}" y="${y - 3}" font-size="10" fill="#e53e3e">${escape(mark.label)}</text>`);
    }
    panel.lines.forEach((line, i) => {
      const color = COLORS[i % COLORS.length];
      const d = line.points.map((p, k) => `${k === 0 ? 'M' : 'L'}${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`).join(' ');
      out.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="2"/>`);
      for (const p of line.points) out.push(`<circle cx="${px(p.x).toFixed(1)}" cy="${py(p.y).toFixed(1)}" r="3" fill="${color}"/>`);
      const ly = oy + panelHeight + margin.bottom + i * 16;
      out.push(`<rect x="${ox}" y="${ly - 9}" width="12" height="3" fill="${color}"/>`);
      out.push(`<text x="${ox + 18}" y="${ly - 4}" font-size="11">${escape(line.label)}</text>`);
    });
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">\n<rect width="100%" height="100%" fill="white"/>\n${out.join('\n')}\n</svg>\n`;
}
