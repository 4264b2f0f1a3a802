// A played match as a Jellyfish .mat file, the layout the engine's ValidateMatch and GNU
// Backgammon's `import mat` read (docs/match-files.md).
//
// `exportMat` asks the service: RecordsService.ExportMatch takes the signed state and the record
// the page kept from the referee's events.records, checks the record against the state's
// record_digest and writes the file (with the headers of the state's rules). Only when the
// service cannot (a server older than ExportMatch: UNIMPLEMENTED; a record larger than its
// request limit: RESOURCE_EXHAUSTED) does the page write the file itself with `writeMat`.
//
// `writeMat`, the fallback: headers, the length line, per game a score line and numbered move
// lines with player 1 (white) on the left and player 2 (black) from column 34. A START_GAME
// entry opens a game (its dice are the starter's first roll), ROLL entries carry the dice,
// CONFIRM_MOVE entries the play in the mover's numbering, the cube and resignation entries the
// cube's value, and an entry with an `outcome` ends the game.
import {
  ActionKind,
  ExportFormat,
  Side,
  engineError,
  type ActionRecord,
  type EngineClient,
  type SignedGameState,
} from "@tavla-engine/client/web";

/** A .mat file to save: its text, a name, and who wrote it. */
export interface MatFile {
  text: string;
  fileName: string;
  /** "service" (ExportMatch) or "browser" (writeMat, when the service could not). */
  writtenBy: "service" | "browser";
}

/**
 * The match as a .mat file from the service (ExportMatch), or written here when the service is
 * older than ExportMatch or the record is over its request limit. `headers` are extra headers
 * (Site, EventDate); the server writes the rules' own from the state, the fallback writes
 * `ruleHeaders` (Variation, Crawford, CubeLimit) before them. `names` are white's and black's.
 */
export async function exportMat(engine: EngineClient, state: SignedGameState, record: ActionRecord[], length: number,
                                headers: Record<string, string>, ruleHeaders: Record<string, string>,
                                names: [string, string], fallbackName: string): Promise<MatFile> {
  try {
    const r = await engine.records.exportMatch({
      state, records: record, format: ExportFormat.MAT, whitePlayer: names[0], blackPlayer: names[1], headers,
    });
    return { text: r.content, fileName: r.fileName, writtenBy: "service" };
  } catch (e) {
    const code = engineError(e).code;
    if (code !== "UNIMPLEMENTED" && code !== "RESOURCE_EXHAUSTED") throw e;
    return { text: writeMat(record, length, { ...ruleHeaders, ...headers }, names), fileName: fallbackName, writtenBy: "browser" };
  }
}

const RIGHT = 34;

function columns(left: string, right: string, prefix: string): string {
  let line = prefix + left;
  if (right) line = (line.padEnd(RIGHT - 2) + "  ").padEnd(RIGHT) + right; // two spaces at least
  return line.replace(/\s+$/, "");
}

const pts = (n: number) => `${n} point${n === 1 ? "" : "s"}`;

/** `record` as .mat text (`\n` line endings); `names` are white's and black's. */
export function writeMat(record: ActionRecord[], length: number, headers: Record<string, string>,
                         names: [string, string] = ["White", "Black"]): string {
  const lines = Object.entries(headers).map(([k, v]) => `; [${k} "${v}"]`);
  if (lines.length) lines.push("");
  lines.push(` ${length} point match`, "");
  const score = [0, 0];
  let game = 0;
  let slots: [string, string] = ["", ""];
  let number = 0;
  let dice: number[] = [];
  const flush = () => {
    if (slots[0] || slots[1]) {
      number++;
      lines.push(columns(slots[0], slots[1], `${String(number).padStart(3)}) `));
      slots = ["", ""];
    }
  };
  const put = (side: Side, text: string) => {
    const i = side === Side.BLACK ? 1 : 0;
    if (slots[1] || (i === 0 && slots[0])) flush();
    slots[i] = text;
  };
  for (const r of record) {
    if (r.kind === ActionKind.START_GAME) {
      flush();
      game++;
      number = 0;
      if (game > 1) lines.push("");
      lines.push(` Game ${game}`, columns(`${names[0]} : ${score[0]}`, `${names[1]} : ${score[1]}`, " "));
      dice = [...r.dice];
    } else if (r.kind === ActionKind.ROLL) {
      dice = [...r.dice];
    } else if (r.kind === ActionKind.CONFIRM_MOVE) {
      put(r.side, `${dice[0]}${dice[1]}: ${r.notation}`.trimEnd());
      dice = [];
    } else if (r.kind === ActionKind.DOUBLE) {
      put(r.side, `Doubles => ${r.cubeValue}`);
    } else if (r.kind === ActionKind.TAKE) {
      put(r.side, "Takes");
    } else if (r.kind === ActionKind.DROP) {
      put(r.side, "Drops");
    }
    const o = r.outcome;
    if (o) {
      const w = o.winner === Side.WHITE ? 0 : 1;
      score[w] = Math.min(length, score[w] + o.points);
      put(o.winner, `Wins ${pts(o.points)}${score[w] >= length ? " and the match" : ""}`);
      flush();
    }
  }
  flush();
  lines.push("");
  return lines.join("\n") + "\n";
}
