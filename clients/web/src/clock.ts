// The clock as a player reads it (R23 extensions, R24 reserve): for the side to act, the free
// time of the move counting down, then the reserve (or the current extension), and the move cap
// (seed 004: a move over 60 s loses the match, whatever reserve is left); a warning from 10 s
// before either runs out. The server measures the time; this only counts down from the view's
// clock.turn_start_time.
import { ClockPreset, Side } from "@tavla-engine/client/web";

import type { GameState } from "./driver.js";
import { t } from "./i18n.js";

/** Seconds before a limit when the warning shows. */
export const WARN_MS = 10_000;

/** A protobuf Duration (clock settings and reserves are whole milliseconds) in milliseconds. */
export const durationMs = (d?: { seconds: bigint; nanos: number }) => (d ? Number(d.seconds) * 1000 + Math.round(d.nanos / 1e6) : 0);

/** m:ss, rounded up (a clock shows 0:00 only once the time is gone). */
export const minSec = (ms: number) => {
  const secs = Math.ceil(Math.max(0, ms) / 1000);
  return `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
};

export interface ClockLines {
  white: string;
  black: string;
  /** The warning to show, when a limit of the side to act is less than WARN_MS away. */
  warning?: string;
}

/** Both sides' clock lines at `now` (ms since the epoch); empty strings when the match has no clock. */
export function clockLines(s: GameState, now: number, name: (side: Side) => string): ClockLines {
  const settings = s.game?.clock?.settings;
  if (s.clockPreset === ClockPreset.UNSPECIFIED && !settings?.preset) return { white: "", black: "" };
  if (!settings || !s.clock) return { white: "", black: "" };
  const running = !!s.turnStartedMs && s.phase !== "game-over" && s.phase !== "match-over" && s.phase !== "start";
  const reserve = settings.preset === ClockPreset.RESERVE;
  const cap = durationMs(settings.moveCap);
  const free = durationMs(settings.moveTime);
  const ext = durationMs(settings.extensionTime) || 1;
  let warning: string | undefined;
  const line = (side: Side): string => {
    const c = side === Side.WHITE ? s.clock!.white : s.clock!.black;
    if (!c) return "";
    const out = s.timedOut === side;
    const acting = running && side === s.sideToAct;
    const elapsed = acting ? Math.max(0, now - s.turnStartedMs) : 0;
    const over = elapsed - free; // < 0: the move's free time is still running
    const parts: string[] = [];
    if (acting && over < 0) parts.push(t("clockFree", { s: Math.ceil(-over / 1000) }));
    let left: number; // until this side loses on time
    if (reserve) {
      left = out ? 0 : durationMs(c.reserve) - Math.max(0, over);
      parts.push(t("clockReserveLeft", { t: minSec(left) }));
      left -= Math.min(0, over); // the free time comes first
    } else {
      const used = over > 0 ? Math.ceil(over / ext) : 0;
      left = out ? 0 : c.extensionsLeft * ext - over;
      if (acting && over >= 0) parts.push(minSec(used * ext - over));
      parts.push(t("clockExt", { n: out ? 0 : Math.max(0, c.extensionsLeft - used) }));
      if (!acting) left = Infinity;
    }
    if (acting && cap) {
      const capLeft = cap - elapsed;
      parts.push(t("clockMove", { t: minSec(capLeft) }));
      if (capLeft <= WARN_MS && capLeft <= left) warning = t("warnCap", { s: Math.ceil(Math.max(0, capLeft) / 1000) });
    }
    if (acting && !warning && left <= WARN_MS) {
      warning = t(reserve ? "warnReserve" : "warnExtension", { side: name(side), s: Math.ceil(Math.max(0, left) / 1000) });
    }
    return `${name(side)}: ${parts.join(" · ")}`;
  };
  return { white: line(Side.WHITE), black: line(Side.BLACK), warning };
}
