// The SVG board. Drawn from white's side: white's points 1-6 bottom right (its home), 7-12
// bottom left, 13-18 top left, 19-24 top right; black's point p is white's 25 - p. Point labels
// are in the numbering of the side on roll. Every point, the bars and the bear-off trays are
// clickable groups with `data-spot` (white's numbering 1-24, "bar-white", "off-black", ...), and
// the classes `movable`, `selected` and `target` say what a click there does.
import { Side, boardOf, type Position } from "@tavla-engine/client/web";

const SVG = "http://www.w3.org/2000/svg";
const PW = 50; // point width
const LEFT = 30; // x of the left quadrant
const BAR_X = LEFT + 6 * PW; // the bar between the quadrants
const BAR_W = 54;
const RIGHT = BAR_X + BAR_W;
const TRAY_X = RIGHT + 6 * PW + 16;
const TRAY_W = 54;
const WIDTH = TRAY_X + TRAY_W + 14;
const TOP = 20;
const BOTTOM = 500;
const HEIGHT = BOTTOM + 20;
const POINT_H = 200;
const R = 22; // checker radius
const STACK = 5; // checkers drawn before a count is shown

export interface Highlights {
  movable: Set<string>;
  selected?: string;
  targets: Set<string>;
}

export interface Dice {
  values: number[];
  left: number[];
}

/** The spot (data-spot) of point `p` in `side`'s numbering: 25 is the bar, 0 off. */
export function spotOf(side: Side, p: number): string {
  const name = side === Side.WHITE ? "white" : "black";
  if (p === 25) return `bar-${name}`;
  if (p === 0) return `off-${name}`;
  return String(side === Side.WHITE ? p : 25 - p);
}

function el<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number>, parent?: Element) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  parent?.appendChild(e);
  return e;
}

function pointX(q: number): number {
  if (q <= 6) return RIGHT + (6 - q) * PW;
  if (q <= 12) return LEFT + (12 - q) * PW;
  if (q <= 18) return LEFT + (q - 13) * PW;
  return RIGHT + (q - 19) * PW;
}

const isBottom = (q: number) => q <= 12;

export class Board {
  readonly svg: SVGSVGElement;
  onClick: (spot: string) => void = () => {};

  constructor(container: HTMLElement) {
    this.svg = el("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "board", role: "img", "aria-label": "tavla board" });
    container.appendChild(this.svg);
    this.svg.addEventListener("click", (ev) => {
      const g = (ev.target as Element).closest("[data-spot]");
      if (g) this.onClick(g.getAttribute("data-spot")!);
    });
  }

  /**
   * Draw `position`. `labels` is the side whose numbering the point labels use; `cube` is
   * undefined when the rules have none.
   */
  render(position: Position | undefined, hl: Highlights, dice: Dice, cube: { value: number; owner: Side } | undefined,
         labels: Side = position?.onRoll ?? Side.WHITE): void {
    const svg = this.svg;
    svg.replaceChildren();
    el("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, rx: 14, class: "frame" }, svg);
    el("rect", { x: LEFT, y: TOP, width: 6 * PW, height: BOTTOM - TOP, class: "felt" }, svg);
    el("rect", { x: RIGHT, y: TOP, width: 6 * PW, height: BOTTOM - TOP, class: "felt" }, svg);
    el("rect", { x: BAR_X, y: TOP, width: BAR_W, height: BOTTOM - TOP, class: "bar" }, svg);
    el("rect", { x: TRAY_X, y: TOP, width: TRAY_W, height: BOTTOM - TOP, class: "tray" }, svg);
    const mover = position?.onRoll ?? Side.WHITE;
    const white = boardOf(position)?.white;
    const black = boardOf(position)?.black;
    for (let q = 1; q <= 24; q++) {
      const g = el("g", { "data-spot": String(q), class: this.classes(String(q), hl, "point") }, svg);
      const x = pointX(q);
      const bottom = isBottom(q);
      const baseY = bottom ? BOTTOM : TOP;
      const tipY = bottom ? BOTTOM - POINT_H : TOP + POINT_H;
      el("rect", { x, y: bottom ? BOTTOM - 230 : TOP, width: PW, height: 230, class: "hit" }, g);
      el("polygon", { points: `${x + 2},${baseY} ${x + PW - 2},${baseY} ${x + PW / 2},${tipY}`, class: q % 2 ? "tri-a" : "tri-b" }, g);
      const label = labels === Side.BLACK ? 25 - q : q;
      el("text", { x: x + PW / 2, y: bottom ? BOTTOM + 14 : TOP - 6, class: "label" }, svg).textContent = String(label);
      const w = white?.points[q - 1] ?? 0;
      const b = black?.points[24 - q] ?? 0;
      const count = w || b;
      const side = w ? "white" : "black";
      this.stack(g, x + PW / 2, baseY, bottom ? -1 : 1, count, side, hl.movable.has(String(q)) || hl.selected === String(q));
      if (hl.targets.has(String(q))) {
        const slot = Math.min(count, STACK - 1);
        el("circle", { cx: x + PW / 2, cy: baseY + (bottom ? -1 : 1) * (R + 2 + slot * 2 * R), r: R - 3, class: "target-marker" }, g);
      }
    }
    // the bars: white's checkers wait above the middle (they enter on 19-24), black's below it,
    // stacked away from the middle where the centred cube sits
    const mid = (TOP + BOTTOM) / 2;
    for (const [name, n, dir] of [["white", white?.bar ?? 0, -1], ["black", black?.bar ?? 0, 1]] as const) {
      const spot = `bar-${name}`;
      const g = el("g", { "data-spot": spot, class: this.classes(spot, hl, "bar-spot"), "data-count": n }, svg);
      el("rect", { x: BAR_X, y: dir < 0 ? TOP : mid, width: BAR_W, height: (BOTTOM - TOP) / 2, class: "hit" }, g);
      this.stack(g, BAR_X + BAR_W / 2, mid + dir * 26 - dir * (R + 2), dir, n, name,
                 hl.movable.has(spot) || hl.selected === spot, 3);
    }
    // bear-off trays: white's bottom right (beside its home), black's top right
    for (const [name, n, bottom] of [["white", white?.borneOff ?? 0, true], ["black", black?.borneOff ?? 0, false]] as const) {
      const spot = `off-${name}`;
      const g = el("g", { "data-spot": spot, class: this.classes(spot, hl, "off-spot"), "data-count": n }, svg);
      const y = bottom ? (TOP + BOTTOM) / 2 + 6 : TOP + 6;
      el("rect", { x: TRAY_X + 4, y, width: TRAY_W - 8, height: (BOTTOM - TOP) / 2 - 12, rx: 6, class: "hit tray-slot" }, g);
      for (let i = 0; i < n; i++) {
        const cy = bottom ? BOTTOM - 10 - i * 14 : TOP + 10 + i * 14;
        el("rect", { x: TRAY_X + 9, y: cy - 6, width: TRAY_W - 18, height: 12, rx: 3, class: `slab ${name}` }, g);
      }
      if (n) el("text", { x: TRAY_X + TRAY_W / 2, y: bottom ? (TOP + BOTTOM) / 2 + 16 : (TOP + BOTTOM) / 2 - 4, class: "count-label" }, g)
        .textContent = String(n);
    }
    this.drawDice(dice, mover);
    if (cube) this.drawCube(cube);
  }

  private classes(spot: string, hl: Highlights, base: string): string {
    const c = [base];
    if (hl.movable.has(spot)) c.push("movable");
    if (hl.selected === spot) c.push("selected");
    if (hl.targets.has(spot)) c.push("target");
    return c.join(" ");
  }

  private stack(g: Element, cx: number, baseY: number, dir: number, n: number, side: string, lit: boolean,
                max = STACK): void {
    for (let i = 0; i < Math.min(n, max); i++) {
      const top = i === Math.min(n, max) - 1;
      el("circle", { cx, cy: baseY + dir * (R + 2 + i * 2 * R), r: R - 1, class: `checker ${side}${top && lit ? " lit" : ""}` }, g);
    }
    if (n > max) {
      el("text", { x: cx, y: baseY + dir * (R + 2 + (max - 1) * 2 * R) + 6, class: `count ${side}` }, g).textContent = String(n);
    }
  }

  private drawDice(dice: Dice, mover: Side): void {
    if (!dice.values.length) return;
    const values = dice.values[0] === dice.values[1] ? [...dice.values, ...dice.values] : dice.values;
    const left = [...dice.left];
    const size = 40;
    const x0 = (mover === Side.WHITE ? RIGHT : LEFT) + 3 * PW - (values.length * (size + 8)) / 2;
    values.forEach((v, i) => {
      const used = !left.includes(v);
      if (!used) left.splice(left.indexOf(v), 1);
      const g = el("g", { class: `die ${mover === Side.WHITE ? "white" : "black"}${used ? " used" : ""}` }, this.svg);
      const x = x0 + i * (size + 8);
      const y = (TOP + BOTTOM) / 2 - size / 2;
      el("rect", { x, y, width: size, height: size, rx: 7 }, g);
      for (const [px, py] of PIPS[v]) el("circle", { cx: x + px * size, cy: y + py * size, r: 4, class: "pip" }, g);
    });
  }

  private drawCube(cube: { value: number; owner: Side }): void {
    // centred in the middle of the bar; an owned cube at its owner's edge (white's: the bottom)
    const y = cube.owner === Side.WHITE ? BOTTOM - 46 : cube.owner === Side.BLACK ? TOP + 6 : (TOP + BOTTOM) / 2 - 20;
    const g = el("g", { class: "cube" }, this.svg);
    el("rect", { x: BAR_X + 7, y, width: 40, height: 40, rx: 6 }, g);
    el("text", { x: BAR_X + 27, y: y + 27 }, g).textContent = String(cube.owner === Side.UNSPECIFIED && cube.value <= 1 ? 64 : cube.value);
  }
}

const PIPS: Record<number, [number, number][]> = {
  1: [[0.5, 0.5]],
  2: [[0.27, 0.27], [0.73, 0.73]],
  3: [[0.25, 0.25], [0.5, 0.5], [0.75, 0.75]],
  4: [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
  5: [[0.25, 0.25], [0.75, 0.25], [0.5, 0.5], [0.25, 0.75], [0.75, 0.75]],
  6: [[0.27, 0.22], [0.73, 0.22], [0.27, 0.5], [0.73, 0.5], [0.27, 0.78], [0.73, 0.78]],
};
