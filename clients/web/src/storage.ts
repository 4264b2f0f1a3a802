// The match kept in the browser (localStorage), so a reload or a closed tab resumes it: the
// signed state as the server last returned it, the record kept from the answers, the log and
// the page's settings. One match at a time; written after every answer.
import type { SavedMatch } from "./driver.js";

const KEY = "tavla-web/match/v1";

/** What the page keeps besides the driver's part: who plays the computer, at what level. */
export interface SavedPage {
  match: SavedMatch;
  botPlays: boolean;
  level: string;
  forced: boolean;
  /** Two players: the board turned to the side on roll (absent in matches kept before the option: on). */
  flip?: boolean;
  savedAt: number;
}

export function save(page: SavedPage): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(page));
  } catch {
    /* storage full or off: the match lasts this visit */
  }
}

/** The kept match, or undefined when there is none (or it cannot be read). */
export function load(): SavedPage | undefined {
  try {
    const text = localStorage.getItem(KEY);
    const page = text ? (JSON.parse(text) as SavedPage) : undefined;
    return page?.match?.signed ? page : undefined;
  } catch {
    return undefined;
  }
}

export function clear(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    /* nothing kept */
  }
}
