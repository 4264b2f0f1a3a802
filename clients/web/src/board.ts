// The SVG board. Drawn from white's side: white's points 1-6 bottom right (its home), 7-12
// bottom left, 13-18 top left, 19-24 top right; black's point p is white's 25 - p, or in the
// variants where both sides move the same way (fevga, long nardy: docs/variants.md) white's
// ((p + 11) mod 24) + 1. A plakoto (mahbusa) checker pinned under its pinner is drawn at the
// base of the point with a ring, the pinner's checkers on top of it. Each side's borne-off
// checkers lie in a tray beside its home: white's at the bottom right; black's at the top right,
// or, when both sides move the same way (black's home is then white's 13-18, top left), in a
// tray left of the board, which the SVG's viewBox widens for (the rest stays where it is). Every point,
// the bars and the bear-off trays are groups with `data-spot` (white's numbering 1-24,
// "bar-white", "off-black", ...); a point's hit area is the whole point, half the board high.
// The classes `movable`, `selected` and `target` say what a tap there does.
//
// `flip` draws the board from black's side (two players on one device): the picture mirrored
// top to bottom, so black's home is at the bottom right as white's is otherwise; the texts stay
// upright. `arrows` draws moves over the checkers (the hint's best move, a review's played and
// better moves): one arrow per checker move, from the checker it moves to where it lands.
//
// Input: pointer events (mouse, touch, pen) drag a checker from a movable spot and drop it;
// a tap without moving is a tap (tap the checker, then its destination); the keyboard moves a
// roving focus between the spots (arrow keys in the board's visual rows) and Enter or Space
// taps the focused spot. The board only reports what happened (onTap, onDragStart, onDrop);
// the page decides what it means.
import { Side, boardOf, type Position } from "@tavla-engine/client/web";

import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const PW = 50; // point width
const LEFT = 12; // x of the left quadrant (a thin frame: the board fills a phone's width)
const BAR_X = LEFT + 6 * PW; // the bar between the quadrants
const BAR_W = 50;
const RIGHT = BAR_X + BAR_W;
const TRAY_X = RIGHT + 6 * PW + 6;
const TRAY_W = 44;
const WIDTH = TRAY_X + TRAY_W + 8;
// same direction: black's tray left of the board, as far from the felt as white's is, and the frame widened
const LEFT_TRAY_X = LEFT - 6 - TRAY_W;
const LEFT_EDGE = LEFT_TRAY_X - 8;
const TOP = 26;
const BOTTOM = 506;
const HEIGHT = BOTTOM + 26;
const MID = (TOP + BOTTOM) / 2;
const POINT_H = 200;
const R = 22; // checker radius
const STACK = 5; // checkers drawn on a point before a count is shown
const BAR_STACK = 3;
const CUBE = 40; // the cube's side
// the bars' stacks start this far from the middle, clear of the centred cube (±CUBE/2)
const BAR_GAP = CUBE / 2 + 4;
// a click this soon after a handled pointerup, this close to it, is that tap's own click
const CLICK_WINDOW_MS = 1000;
const CLICK_SLOP_PX = 24;

export interface Highlights {
  movable: Set<string>;
  selected?: string;
  targets: Set<string>;
}

export interface Dice {
  values: number[];
  left: number[];
}

/**
 * What to draw: the position, what may be picked, the dice, the cube (undefined: none), the side
 * whose numbering the labels use, and whether both sides move the same way (`same`: fevga,
 * long nardy).
 */
export interface BoardView {
  position?: Position;
  hl: Highlights;
  dice: Dice;
  /** `offered`: a double is pending, the cube shows the value offered (in the middle, marked). */
  cube?: { value: number; owner: Side; offered?: number };
  labels: Side;
  same?: boolean;
  /** Draw the board from black's side: mirrored top to bottom (texts upright). */
  flip?: boolean;
  /** Moves drawn as arrows over the checkers. */
  arrows?: Arrow[];
}

/** One checker move drawn as an arrow: spots as data-spot names; `tone` its colour (best: green, played: red). */
export interface Arrow {
  side: Side;
  from: string;
  to: string;
  tone: "best" | "played";
}

/**
 * The point of the other side's numbering that is point `p` (1-24) of one side's: 25 - p, or
 * ((p + 11) mod 24) + 1 when both sides move the same way. Both maps are their own inverse.
 */
export function otherPoint(p: number, same = false): number {
  return same ? ((p + 11) % 24) + 1 : 25 - p;
}

/**
 * One checker's move to show: spots in white's numbering as data-spot names; `hit` the spot of a
 * checker sent to the bar; `under` the checkers drawn under the mover's stack on `from` before
 * the step (1: a plakoto checker pinned there, at the base; the stack starts one slot up).
 */
export interface Slide {
  side: Side;
  from: string;
  to: string;
  hit?: string;
  under?: number;
}

/** The spot (data-spot) of point `p` in `side`'s numbering: 25 is the bar, 0 off; `same`: both sides move the same way. */
export function spotOf(side: Side, p: number, same = false): string {
  const name = side === Side.WHITE ? "white" : "black";
  if (p === 25) return `bar-${name}`;
  if (p === 0) return `off-${name}`;
  return String(side === Side.WHITE ? p : otherPoint(p, same));
}

// The board's two visual rows, left to right, for the arrow keys (same direction: black's tray
// at the left end of the top row).
const TOP_ROW = ["13", "14", "15", "16", "17", "18", "bar-white", "19", "20", "21", "22", "23", "24", "off-black"];
const BOTTOM_ROW = ["12", "11", "10", "9", "8", "7", "bar-black", "6", "5", "4", "3", "2", "1", "off-white"];
// ("": no spot there, so the columns stay aligned for up and down)
const TOP_ROW_SAME = ["off-black", ...TOP_ROW.slice(0, -1), ""];
const BOTTOM_ROW_SAME = ["", ...BOTTOM_ROW];

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

/** The x of `side`'s bear-off tray (its left edge): black's left of the board when both sides move the same way. */
export function trayX(side: "white" | "black", same = false): number {
  return side === "black" && same ? LEFT_TRAY_X : TRAY_X;
}

/**
 * The centre of the `i`-th checker (0 = first) of a stack on `spot` (the slot is capped as drawn);
 * `same`: both sides move the same way (black's tray on the left).
 */
export function slotXY(spot: string, i: number, same = false): [number, number] {
  if (spot.startsWith("bar-")) {
    const dir = spot === "bar-white" ? -1 : 1;
    const k = Math.min(i, BAR_STACK - 1);
    return [BAR_X + BAR_W / 2, MID + dir * (BAR_GAP + R + k * 2 * R)];
  }
  if (spot.startsWith("off-")) {
    const bottom = spot === "off-white";
    return [trayX(bottom ? "white" : "black", same) + TRAY_W / 2, bottom ? BOTTOM - 10 - i * 14 : TOP + 10 + i * 14];
  }
  const q = Number(spot);
  const k = Math.min(i, STACK - 1);
  const x = pointX(q) + PW / 2;
  return [x, isBottom(q) ? BOTTOM - (R + 2 + k * 2 * R) : TOP + R + 2 + k * 2 * R];
}

const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

export class Board {
  readonly svg: SVGSVGElement;
  private readonly layer: SVGGElement;
  private readonly overlay: SVGGElement;
  /** A tap (click, Enter or Space, or a press released without dragging) on a spot. */
  onTap: (spot: string) => void = () => {};
  /** A drag may start at `spot` (a movable checker); the page shows its targets. */
  canDrag: (spot: string) => boolean = () => false;
  onDragStart: (spot: string) => void = () => {};
  /** A dragged checker was released over `to` (undefined: off the board). */
  onDrop: (from: string, to: string | undefined) => void = () => {};
  /** Milliseconds a checker takes to slide (0: no motion). */
  slideMs = 320;
  private view?: BoardView;
  private drawn = "";
  private focusSpot = "1";
  private flipped = false;
  private drag?: { spot: string; pointerId: number; x0: number; y0: number; moved: boolean; ghost?: SVGCircleElement };
  // the tap a pointerup just reported: the browser's click that follows it (at the same place,
  // possibly well after the touch ended) is the same tap and is swallowed once
  private handledTap?: { x: number; y: number; at: number };
  private running = 0;
  private anims = new Set<Animation>();
  private lastDrop: [number, number] = [0, 0];

  constructor(container: HTMLElement) {
    this.svg = el("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "board", role: "group" });
    const defs = el("defs", {}, this.svg);
    for (const tone of ["best", "played"]) {
      const m = el("marker", { id: `arrowhead-${tone}`, viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 3.2,
        markerHeight: 3.2, orient: "auto-start-reverse", markerUnits: "strokeWidth" }, defs);
      el("path", { d: "M0,0 L10,5 L0,10 z", class: `arrowhead ${tone}` }, m);
    }
    this.layer = el("g", {}, this.svg);
    this.overlay = el("g", { class: "overlay" }, this.svg);
    container.appendChild(this.svg);
    this.svg.addEventListener("click", (ev) => {
      if (this.isHandledTap(ev)) return;
      const g = (ev.target as Element).closest("[data-spot]");
      if (g) this.tap(g.getAttribute("data-spot")!);
    });
    this.svg.addEventListener("pointerdown", (ev) => this.pointerDown(ev));
    this.svg.addEventListener("pointermove", (ev) => this.pointerMove(ev));
    this.svg.addEventListener("pointerup", (ev) => this.pointerUp(ev));
    this.svg.addEventListener("pointercancel", () => this.cancelDrag());
    this.svg.addEventListener("keydown", (ev) => this.key(ev));
  }

  /** Whether a checker is being dragged or is sliding. */
  get active(): boolean {
    return !!this.drag?.moved || this.running > 0;
  }

  /** Whether `ev` is the click that follows the tap a pointerup reported (then it is consumed). */
  private isHandledTap(ev: MouseEvent): boolean {
    const h = this.handledTap;
    if (!h) return false;
    this.handledTap = undefined;
    // a click is the tap's when it comes soon after at about the same place (a finger's click
    // may come 300 ms late, after a double-tap wait; a new tap elsewhere is a new click)
    return ev.timeStamp - h.at < CLICK_WINDOW_MS && Math.hypot(ev.clientX - h.x, ev.clientY - h.y) < CLICK_SLOP_PX;
  }

  private tap(spot: string): void {
    this.focusSpot = spot;
    this.onTap(spot);
  }

  /** Draw `view`; keyboard focus stays on the spot that had it. */
  render(view: BoardView): void {
    this.svg.setAttribute("aria-label", t("boardLabel"));
    // the same picture again (the page redraws after every answer): keep it, and any slide on it
    const key = JSON.stringify([boardOf(view.position), view.position?.onRoll, [...view.hl.movable], [...view.hl.targets],
      view.hl.selected, view.dice, view.cube, view.labels, view.same, view.flip, view.arrows, this.drag?.moved && this.drag.spot,
      t("point", { n: 0 })],
      (_, v) => (typeof v === "bigint" ? String(v) : v));
    if (key === this.drawn) return;
    this.drawn = key;
    this.view = view;
    for (const a of [...this.anims]) a.cancel(); // a new picture ends every slide
    const hadFocus = this.svg.contains(document.activeElement);
    const { position, hl, dice, cube, labels } = view;
    const same = !!view.same;
    const x0 = same ? LEFT_EDGE : 0;
    this.svg.setAttribute("viewBox", `${x0} 0 ${WIDTH - x0} ${HEIGHT}`);
    const svg = this.layer;
    svg.replaceChildren();
    this.flipped = !!view.flip;
    // black's side: the whole picture mirrored top to bottom (texts turned upright in `upright`)
    if (this.flipped) svg.setAttribute("transform", `matrix(1 0 0 -1 0 ${HEIGHT})`);
    else svg.removeAttribute("transform");
    this.svg.dataset.flipped = this.flipped ? "1" : "0";
    const counts = new Map<string, { n: number; side: string }>(); // what each spot shows, for the arrows
    el("rect", { x: x0, y: 0, width: WIDTH - x0, height: HEIGHT, rx: 14, class: "frame" }, svg);
    el("rect", { x: LEFT, y: TOP, width: 6 * PW, height: BOTTOM - TOP, class: "felt" }, svg);
    el("rect", { x: RIGHT, y: TOP, width: 6 * PW, height: BOTTOM - TOP, class: "felt" }, svg);
    el("rect", { x: BAR_X, y: TOP, width: BAR_W, height: BOTTOM - TOP, class: "bar" }, svg);
    el("rect", { x: TRAY_X, y: TOP, width: TRAY_W, height: BOTTOM - TOP, class: "tray" }, svg);
    if (same) el("rect", { x: LEFT_TRAY_X, y: TOP, width: TRAY_W, height: BOTTOM - TOP, class: "tray" }, svg);
    const white = boardOf(position)?.white;
    const black = boardOf(position)?.black;
    const lifted = this.drag?.moved ? this.drag.spot : undefined;
    for (let q = 1; q <= 24; q++) {
      const spot = String(q);
      const bq = otherPoint(q, same); // black's number of this point
      const w = white?.points[q - 1] ?? 0;
      const b = black?.points[bq - 1] ?? 0;
      // plakoto: one side's single checker pinned under the other side's stack
      const pinned = white?.pinned.includes(q) && b ? "white" : black?.pinned.includes(bq) && w ? "black" : undefined;
      const count = pinned ? (pinned === "white" ? b : w) : w || b;
      const side = pinned ? (pinned === "white" ? "black" : "white") : w ? "white" : "black";
      const label = labels === Side.BLACK ? bq : q;
      const g = this.spot(spot, hl, "point", this.ariaPoint(label, count, side, spot, hl, pinned));
      if (pinned) g.setAttribute("data-pinned", pinned);
      const x = pointX(q);
      const bottom = isBottom(q);
      const baseY = bottom ? BOTTOM : TOP;
      const tipY = bottom ? BOTTOM - POINT_H : TOP + POINT_H;
      el("rect", { x, y: bottom ? MID : TOP, width: PW, height: (BOTTOM - TOP) / 2, class: "hit" }, g);
      el("polygon", { points: `${x + 2},${baseY} ${x + PW - 2},${baseY} ${x + PW / 2},${tipY}`, class: q % 2 ? "tri-a" : "tri-b" }, g);
      this.upright(el("text", { x: x + PW / 2, y: bottom ? BOTTOM + 20 : TOP - 7, class: "label", "aria-hidden": "true" }, svg), 17)
        .textContent = String(label);
      counts.set(spot, { n: count + (pinned ? 1 : 0), side });
      if (pinned) {
        // the pinned checker at the base, ringed; the pinner's stack starts one slot up
        const [cx, cy] = slotXY(spot, 0);
        el("circle", { cx, cy, r: R - 1, class: `checker ${pinned} pinned` }, g);
        el("circle", { cx, cy, r: R - 7, class: "pin-ring" }, g);
      }
      const base = pinned ? 1 : 0;
      this.stack(g, spot, count, side, hl.movable.has(spot) || hl.selected === spot, STACK - base, lifted === spot, base);
      if (hl.targets.has(spot)) {
        const [cx, cy] = slotXY(spot, Math.min(count + base, STACK - 1));
        el("circle", { cx, cy, r: R - 3, class: "target-marker" }, g);
      }
    }
    this.drawDirections(same);
    // the bars: white's checkers wait above the middle (they enter on 19-24), black's below it,
    // both stacked away from the middle where the centred cube sits
    for (const [name, n] of [["white", white?.bar ?? 0], ["black", black?.bar ?? 0]] as const) {
      const spot = `bar-${name}`;
      const g = this.spot(spot, hl, "bar-spot", this.ariaBox("barOf", name, n, spot, hl));
      g.setAttribute("data-count", String(n));
      const up = name === "white";
      el("rect", { x: BAR_X, y: up ? TOP : MID, width: BAR_W, height: (BOTTOM - TOP) / 2, class: "hit" }, g);
      this.stack(g, spot, n, name, hl.movable.has(spot) || hl.selected === spot, BAR_STACK, lifted === spot);
      counts.set(spot, { n, side: name });
    }
    // bear-off trays beside each side's home: white's bottom right; black's top right, or top
    // left when both sides move the same way
    for (const [name, n, bottom] of [["white", white?.borneOff ?? 0, true], ["black", black?.borneOff ?? 0, false]] as const) {
      const spot = `off-${name}`;
      const g = this.spot(spot, hl, "off-spot", this.ariaBox("offOf", name, n, spot, hl));
      g.setAttribute("data-count", String(n));
      const tx = trayX(name, same);
      const y = bottom ? MID + 6 : TOP + 6;
      el("rect", { x: tx + 4, y, width: TRAY_W - 8, height: (BOTTOM - TOP) / 2 - 12, rx: 6, class: "hit tray-slot" }, g);
      for (let i = 0; i < n; i++) {
        const [, cy] = slotXY(spot, i, same);
        el("rect", { x: tx + 9, y: cy - 6, width: TRAY_W - 18, height: 12, rx: 3, class: `slab ${name}` }, g);
      }
      // the count just past the stack's inner end: beside the checkers it counts at any size
      const [, last] = n ? slotXY(spot, n - 1, same) : [0, 0];
      if (n) this.upright(el("text", { x: tx + TRAY_W / 2, y: bottom ? last - 10 : last + 21, class: "count-label", "aria-hidden": "true" }, g), 17)
        .textContent = String(n);
      counts.set(spot, { n, side: name });
    }
    this.drawDice(dice, position?.onRoll ?? Side.WHITE);
    if (cube) this.drawCube(cube);
    this.drawArrows(view.arrows ?? [], counts, same);
    this.setRovingFocus(hadFocus);
  }

  private spot(spot: string, hl: Highlights, base: string, label: string): SVGGElement {
    const c = [base];
    if (hl.movable.has(spot)) c.push("movable");
    if (hl.selected === spot) c.push("selected");
    if (hl.targets.has(spot)) c.push("target");
    return el("g", { "data-spot": spot, class: c.join(" "), role: "button", tabindex: -1, "aria-label": label }, this.layer);
  }

  private marks(spot: string, hl: Highlights): string {
    const m: string[] = [];
    if (hl.selected === spot) m.push(t("selectedMark"));
    else if (hl.movable.has(spot)) m.push(t("movable"));
    if (hl.targets.has(spot)) m.push(t("target"));
    return m.length ? `; ${m.join(", ")}` : "";
  }

  private ariaPoint(label: number, count: number, side: string, spot: string, hl: Highlights, pinned?: string): string {
    const what = count ? t("checkers", { n: count, side: t(side === "white" ? "white" : "black").toLowerCase() }) : t("empty");
    const pin = pinned ? t("pinnedUnder", { side: t(pinned === "white" ? "white" : "black").toLowerCase() }) : "";
    return `${t("point", { n: label })}: ${what}${pin}${this.marks(spot, hl)}`;
  }

  /**
   * Each side's direction, over and under the bar: which way its checkers go along the top row
   * and along the bottom row (white always 24 to 1: left on top, right below; black the other
   * way, or white's way when both move the same way).
   */
  private drawDirections(same: boolean): void {
    const g = el("g", { class: "directions", role: "img", "aria-label": t(same ? "dirSame" : "dirOpposite") }, this.layer);
    const rows: [number, string, string][] = [
      [TOP / 2, "←", same ? "←" : "→"],
      [BOTTOM + (HEIGHT - BOTTOM) / 2, "→", same ? "→" : "←"],
    ];
    for (const [y, wArrow, bArrow] of rows) {
      for (const [i, name, arrow] of [[0, "white", wArrow], [1, "black", bArrow]] as const) {
        const x = BAR_X + 4 + i * 24;
        el("circle", { cx: x + 5, cy: y, r: 5, class: `checker ${name} dir-dot` }, g);
        this.upright(el("text", { x: x + 16, y: y + 5, class: "dir-arrow", "aria-hidden": "true" }, g), 15).textContent = arrow;
      }
    }
  }

  private ariaBox(key: "barOf" | "offOf", name: string, n: number, spot: string, hl: Highlights): string {
    const side = t(name === "white" ? "white" : "black").toLowerCase();
    return `${t(key, { side })}: ${n}${this.marks(spot, hl)}`;
  }

  private stack(g: Element, spot: string, n: number, side: string, lit: boolean, max: number, lifted: boolean, base = 0): void {
    const shown = Math.min(n, max);
    for (let i = 0; i < shown; i++) {
      const top = i === shown - 1;
      const [cx, cy] = slotXY(spot, base + i);
      el("circle", { cx, cy, r: R - 1, class: `checker ${side}${top && lit ? " lit" : ""}${top && lifted ? " lifted" : ""}` }, g);
    }
    if (n > max) {
      const [cx, cy] = slotXY(spot, base + max - 1);
      this.upright(el("text", { x: cx, y: cy + 6, class: `count ${side}`, "aria-hidden": "true" }, g), 17).textContent = String(n);
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
      const g = el("g", { class: `die ${mover === Side.WHITE ? "white" : "black"}${used ? " used" : ""}`, "aria-hidden": "true" }, this.layer);
      const x = x0 + i * (size + 8);
      const y = MID - size / 2;
      el("rect", { x, y, width: size, height: size, rx: 7 }, g);
      for (const [px, py] of PIPS[v]) el("circle", { cx: x + px * size, cy: y + py * size, r: 4, class: "pip" }, g);
    });
  }

  private drawCube(cube: { value: number; owner: Side; offered?: number }): void {
    // centred in the middle of the bar (the bars' checkers start BAR_GAP away); an owned cube
    // at its owner's edge (white's: the bottom); a double pending: in the middle, turned to the
    // value offered and ringed until it is taken or dropped
    const offered = cube.offered;
    const y = offered ? MID - CUBE / 2 : cube.owner === Side.WHITE ? BOTTOM - CUBE - 6 : cube.owner === Side.BLACK ? TOP + 6 : MID - CUBE / 2;
    const shown = offered ?? (cube.owner === Side.UNSPECIFIED && cube.value <= 1 ? 64 : cube.value);
    const g = el("g", { class: offered ? "cube offered" : "cube", "aria-hidden": "true", "data-value": shown }, this.layer);
    el("rect", { x: BAR_X + (BAR_W - CUBE) / 2, y, width: CUBE, height: CUBE, rx: 6 }, g);
    this.upright(el("text", { x: BAR_X + BAR_W / 2, y: y + 27 }, g), 20).textContent = String(shown);
  }

  /**
   * A text kept upright on a flipped board: mirrored back about its own middle (a baseline at
   * `y` and a font of `size` px has its middle about 0.35 x size above it), so it reads as usual
   * where the mirrored picture puts it.
   */
  private upright<E extends SVGTextElement>(e: E, size: number): E {
    if (!this.flipped) return e;
    const y = Number(e.getAttribute("y"));
    e.setAttribute("transform", `matrix(1 0 0 -1 0 ${2 * y - 0.7 * size})`);
    return e;
  }

  /**
   * The arrows: each checker move from the top checker of its origin to the slot it lands in
   * (a hit blot's slot, or the one above the stack), the counts kept as the moves go, so a
   * checker moved twice draws two arrows end to start and two checkers from one point start
   * one above the other; each tone (the played move, the better one) from the drawn position.
   */
  private drawArrows(arrows: Arrow[], counts: Map<string, { n: number; side: string }>, same: boolean): void {
    if (!arrows.length) return;
    const g = el("g", { class: "arrows", "aria-hidden": "true", "data-count": arrows.length }, this.layer);
    // each tone is a move of its own from the drawn position: the better move's arrows start where
    // the played move's do, not from the position the played move left
    const fresh = () => new Map([...counts].map(([k, v]) => [k, { ...v }]));
    const byTone = new Map<Arrow["tone"], ReturnType<typeof fresh>>();
    for (const a of arrows) {
      const left = byTone.get(a.tone) ?? byTone.set(a.tone, fresh()).get(a.tone)!;
      const name = a.side === Side.WHITE ? "white" : "black";
      const from = left.get(a.from) ?? { n: 1, side: name };
      const [x1, y1] = slotXY(a.from, Math.max(0, Math.min(from.n, STACK) - 1), same);
      from.n = Math.max(0, from.n - 1);
      left.set(a.from, from);
      const to = left.get(a.to) ?? { n: 0, side: name };
      const mine = to.side === name ? to.n : 0; // a hit blot leaves: the arrow ends on its slot
      const [x2, y2] = slotXY(a.to, Math.min(mine, STACK - 1), same);
      left.set(a.to, { n: mine + 1, side: name });
      el("line", { x1, y1, x2, y2, class: `arrow ${a.tone}`, "marker-end": `url(#arrowhead-${a.tone})`,
        "data-from": a.from, "data-to": a.to }, g);
    }
  }

  // --- keyboard -------------------------------------------------------------------------

  private setRovingFocus(hadFocus: boolean): void {
    const spots = [...this.layer.querySelectorAll<SVGGElement>("[data-spot]")];
    let current = spots.find((g) => g.dataset.spot === this.focusSpot);
    if (!current) current = spots.find((g) => g.classList.contains("movable")) ?? spots[0];
    for (const g of spots) g.setAttribute("tabindex", g === current ? "0" : "-1");
    if (hadFocus && current) current.focus();
  }

  private key(ev: KeyboardEvent): void {
    const g = (ev.target as Element).closest?.("[data-spot]");
    const spot = g?.getAttribute("data-spot");
    if (!spot) return;
    const rows = this.view?.same ? [TOP_ROW_SAME, BOTTOM_ROW_SAME] : [TOP_ROW, BOTTOM_ROW];
    const [upper, lower] = this.flipped ? [rows[1], rows[0]] : rows; // flipped: the rows change places
    const top = upper.indexOf(spot);
    const row = top >= 0 ? upper : lower;
    const i = top >= 0 ? top : lower.indexOf(spot);
    const spots = row.filter(Boolean);
    let next: string | undefined;
    switch (ev.key) {
      case "ArrowLeft": next = row[Math.max(0, i - 1)]; break;
      case "ArrowRight": next = row[Math.min(row.length - 1, i + 1)]; break;
      case "ArrowUp": next = upper[i]; break;
      case "ArrowDown": next = lower[i]; break;
      case "Home": next = spots[0]; break;
      case "End": next = spots[spots.length - 1]; break;
      case "Enter":
      case " ":
        ev.preventDefault();
        this.tap(spot);
        return;
      case "Escape":
        this.onTap("");
        return;
      default:
        return;
    }
    ev.preventDefault();
    if (!next) return; // no spot that way (the corner under or over a tray)
    this.focusSpot = next;
    this.setRovingFocus(true);
  }

  // --- dragging -------------------------------------------------------------------------

  private svgPoint(ev: PointerEvent): [number, number] {
    const m = this.svg.getScreenCTM();
    if (!m) return [0, 0];
    const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  private pointerDown(ev: PointerEvent): void {
    if (ev.button !== 0 || this.drag) return;
    const spot = (ev.target as Element).closest("[data-spot]")?.getAttribute("data-spot");
    if (!spot || !this.canDrag(spot)) return;
    ev.preventDefault(); // no text selection, no scrolling under a finger
    this.drag = { spot, pointerId: ev.pointerId, x0: ev.clientX, y0: ev.clientY, moved: false };
    this.svg.setPointerCapture(ev.pointerId);
  }

  private pointerMove(ev: PointerEvent): void {
    const d = this.drag;
    if (!d || ev.pointerId !== d.pointerId) return;
    if (!d.moved) {
      if (Math.hypot(ev.clientX - d.x0, ev.clientY - d.y0) < 6) return;
      d.moved = true;
      const side = d.spot.endsWith("black") || this.ownerOf(d.spot) === "black" ? "black" : "white";
      d.ghost = el("circle", { r: R + 1, class: `checker ${side} ghost` }, this.overlay);
      document.body.dataset.dragging = d.spot;
      this.onDragStart(d.spot); // the page renders the targets (and this board marks the lifted checker)
    }
    const [x, y] = this.svgPoint(ev);
    d.ghost!.setAttribute("cx", String(x));
    d.ghost!.setAttribute("cy", String(y));
  }

  private pointerUp(ev: PointerEvent): void {
    const d = this.drag;
    if (!d || ev.pointerId !== d.pointerId) return;
    this.svg.releasePointerCapture(ev.pointerId);
    // the click that follows a captured pointer may target the svg, not the spot, and may come
    // late (a finger's): the tap is reported here and that click swallowed when it comes
    this.handledTap = { x: ev.clientX, y: ev.clientY, at: ev.timeStamp };
    if (!d.moved) {
      this.drag = undefined; // a tap on a movable checker
      this.tap(d.spot);
      return;
    }
    this.lastDrop = this.svgPoint(ev);
    const under = document.elementFromPoint(ev.clientX, ev.clientY)?.closest("[data-spot]");
    const to = under && this.svg.contains(under) ? under.getAttribute("data-spot")! : undefined;
    this.endDrag();
    this.onDrop(d.spot, to);
  }

  /** The dragged checker returns to where it came from (an illegal drop). */
  snapBack(from: string): void {
    const top = this.topChecker(from);
    const [x, y] = this.lastDrop;
    if (top) this.animateFrom(top, [x, this.flipped ? HEIGHT - y : y], 0); // in the (mirrored) picture's coordinates
  }

  private cancelDrag(): void {
    if (this.drag) this.endDrag();
  }

  private endDrag(): void {
    this.drag?.ghost?.remove();
    this.drag = undefined;
    delete document.body.dataset.dragging;
  }

  private ownerOf(spot: string): "white" | "black" | undefined {
    if (spot.endsWith("-white")) return "white";
    if (spot.endsWith("-black")) return "black";
    const g = this.layer.querySelector(`[data-spot='${spot}'] .checker:not(.pinned)`);
    return g?.classList.contains("white") ? "white" : g?.classList.contains("black") ? "black" : undefined;
  }

  // --- motion ---------------------------------------------------------------------------

  private topChecker(spot: string): SVGGraphicsElement | undefined {
    const all = this.layer.querySelectorAll<SVGGraphicsElement>(`[data-spot='${spot}'] .checker:not(.pinned), [data-spot='${spot}'] .slab`);
    return all[all.length - 1];
  }

  /**
   * Slide a checker of the position just drawn: from where it stood on `from` to its place on
   * `to`; a hit checker then goes from `to` to its bar. Nothing moves under
   * prefers-reduced-motion.
   */
  slide(s: Slide, countBefore: number): void {
    if (!this.slideMs || reducedMotion()) return;
    const mover = this.topChecker(s.to);
    if (!mover) return;
    // from the top of the stack as it was drawn: above a pinned checker when there was one
    this.animateFrom(mover, slotXY(s.from, (s.under ?? 0) + Math.max(0, countBefore - 1)), 0);
    if (s.hit) {
      const hit = this.topChecker(s.hit);
      const [x, y] = slotXY(s.to, 0);
      if (hit) this.animateFrom(hit, [x, y], this.slideMs * 0.7);
    }
  }

  private animateFrom(node: SVGGraphicsElement, [x, y]: [number, number], delay: number): void {
    if (!this.slideMs || reducedMotion()) return;
    const isRect = node.tagName === "rect";
    const cx = isRect ? Number(node.getAttribute("x")) + Number(node.getAttribute("width")) / 2 : Number(node.getAttribute("cx"));
    const cy = isRect ? Number(node.getAttribute("y")) + Number(node.getAttribute("height")) / 2 : Number(node.getAttribute("cy"));
    const from = `translate(${x - cx}px, ${y - cy}px)`;
    node.parentNode?.appendChild(node); // drawn above its neighbours while it moves
    const anim = node.animate([{ transform: from }, { transform: "translate(0px, 0px)" }],
      { duration: this.slideMs, delay, easing: "cubic-bezier(.3,.7,.3,1)", fill: "backwards" });
    // counted once, uncounted once: whichever of finish and cancel comes first (cancel() on a
    // finished animation fires cancel too) ends it
    this.anims.add(anim);
    this.running = this.anims.size;
    document.body.dataset.sliding = String(this.running);
    const done = () => {
      if (!this.anims.delete(anim)) return;
      this.running = this.anims.size;
      if (this.running) document.body.dataset.sliding = String(this.running);
      else delete document.body.dataset.sliding;
    };
    anim.onfinish = done;
    anim.oncancel = done;
  }

  /** Checkers sliding now (never negative; 0 when still). */
  get sliding(): number {
    return this.running;
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
