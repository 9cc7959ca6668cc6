import { useEffect, useRef, useState } from "preact/hooks";
import { toCsv } from "../csv";
import { download } from "../download";
import { FigureSpec } from "../figures/plots";

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
  const svgText = () => {
    const svg = chart().cloneNode(true) as SVGSVGElement;
    svg.setAttribute("xmlns", "http://www.w3.org/2000/svg");
    return new XMLSerializer().serializeToString(svg);
  };
  const png = () => {
    const svg = chart();
    const image = new Image();
    const scale = 2;
    image.onload = () => {
      const canvas = document.createElement("canvas");
      canvas.width = svg.clientWidth * scale;
      canvas.height = svg.clientHeight * scale;
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
