import { useEffect, useRef, useState } from "preact/hooks";
import { toCsv } from "../csv";
import { download } from "../download";
import { FigureSpec } from "../figures/plots";

const SVG = "http://www.w3.org/2000/svg";

/** One figure: the chart, its caption, and downloads of the chart (SVG, PNG) and of its data (CSV). */
export function Figure({ spec, dataset }: { spec: FigureSpec; dataset: string }) {
  const holder = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(720);
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(Math.max(360, Math.min(element.clientWidth, 1100))));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    element.replaceChildren();
    if (spec.rows.length === 0) return;
    element.append(spec.render(width));
  }, [spec, width]);

  const name = `${dataset}-${spec.key}`;
  const chart = () => {
    const svgs = [...(holder.current?.querySelectorAll("svg") ?? [])];
    // The plot is the largest svg (legends are small ones beside it).
    return svgs.sort((a, b) => b.clientWidth * b.clientHeight - a.clientWidth * a.clientHeight)[0];
  };
  /**
   * The exported figure says what it shows on its own: the title and the dataset above the chart, and the
   * colour legend (Plot draws it as HTML swatches beside the chart) drawn below it as SVG.
   */
  const exported = (): { svg: SVGSVGElement; width: number; height: number } => {
    const plot = chart();
    const width = plot.clientWidth || Number(plot.getAttribute("width")) || 720;
    const plotHeight = plot.clientHeight || Number(plot.getAttribute("height")) || 300;
    const swatches = [
      ...(holder.current?.querySelectorAll<HTMLElement>('[class*="-swatch"]:not([class*="-swatches"])') ??
        []),
    ].map((swatch) => ({
      color:
        swatch.querySelector("svg")?.getAttribute("fill") ??
        swatch.querySelector("[fill]")?.getAttribute("fill") ??
        "currentColor",
      label: (swatch.textContent ?? "").trim(),
    }));
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("xmlns", SVG);
    svg.setAttribute("font-family", "system-ui, sans-serif");
    svg.setAttribute("font-size", "12");
    const add = (tag: string, attributes: Record<string, string | number>, text?: string) => {
      const element = document.createElementNS(SVG, tag);
      for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
      if (text !== undefined) element.textContent = text;
      svg.append(element);
      return element;
    };
    add("rect", { width: "100%", height: "100%", fill: "white" });
    const header = spec.titled ? 0 : 28;
    if (!spec.titled)
      add("text", { x: 8, y: 18, "font-size": 14, "font-weight": "bold" }, `${spec.title}: ${dataset}`);
    const inner = plot.cloneNode(true) as SVGSVGElement;
    inner.setAttribute("x", "0");
    inner.setAttribute("y", String(header));
    svg.append(inner);
    let x = 8;
    let y = header + plotHeight + 16;
    for (const { color, label } of swatches) {
      const advance = 24 + label.length * 7;
      if (x + advance > width && x > 8) {
        x = 8;
        y += 18;
      }
      add("rect", { x, y: y - 10, width: 12, height: 12, fill: color });
      add("text", { x: x + 16, y }, label);
      x += advance;
    }
    const height = y + (swatches.length > 0 ? 10 : -6);
    svg.setAttribute("width", String(width));
    svg.setAttribute("height", String(height));
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    return { svg, width, height };
  };
  const svgText = () => new XMLSerializer().serializeToString(exported().svg);
  const png = () => {
    const { width, height } = exported();
    const image = new Image();
    const scale = 2;
    image.onload = () => {
      const canvas = document.createElement("canvas");
      canvas.width = width * scale;
      canvas.height = height * scale;
      const context = canvas.getContext("2d")!;
      context.fillStyle = "white";
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.drawImage(image, 0, 0, canvas.width, canvas.height);
      canvas.toBlob((blob) => blob && download(`${name}.png`, blob), "image/png");
    };
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText())}`;
  };

  return (
    <figure class="figure" data-figure={spec.key} data-points={spec.rows.length}>
      <figcaption>
        <h3>{spec.title}</h3>
        <p>{spec.caption}</p>
      </figcaption>
      {spec.rows.length === 0 ? <p class="empty">No data yet.</p> : null}
      <div ref={holder} class="chart" />
      {spec.rows.length > 0 ? (
        <div class="downloads">
          <button
            type="button"
            onClick={() => download(`${name}.svg`, new Blob([svgText()], { type: "image/svg+xml" }))}
          >
            SVG
          </button>
          <button type="button" onClick={png}>
            PNG
          </button>
          <button
            type="button"
            onClick={() => download(`${name}.csv`, new Blob([toCsv(spec.rows)], { type: "text/csv" }))}
          >
            Data (CSV)
          </button>
        </div>
      ) : null}
    </figure>
  );
}
