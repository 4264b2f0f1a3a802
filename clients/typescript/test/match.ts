// The matching rules of clients/conformance/README.md, as in every client's runner.
export const TOLERANCE = 1e-9;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isDefault(v: Json | undefined): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === "") return true;
  if (typeof v === "string") return v.endsWith("_UNSPECIFIED");
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === "object") return Object.keys(v).length === 0;
  return false;
}

const show = (v: unknown) => JSON.stringify(v);

/** Where `actual` (a response as proto JSON) fails `expected`; empty when it matches. */
export function match(expected: Json, actual: Json | undefined, path = "$"): string[] {
  if (expected !== null && typeof expected === "object" && !Array.isArray(expected)) {
    const keys = Object.keys(expected);
    if (keys.some((k) => k.startsWith("$"))) return matchOperators(expected, actual, path);
    const got = actual === undefined || actual === null ? {} : actual;
    if (typeof got !== "object" || Array.isArray(got)) return [`${path}: expected an object, got ${show(actual)}`];
    return keys.flatMap((k) => match(expected[k], (got as Record<string, Json>)[k], `${path}.${k}`));
  }
  if (Array.isArray(expected)) {
    const got = actual === undefined || actual === null ? [] : actual;
    if (!Array.isArray(got) || got.length !== expected.length) return [`${path}: expected ${show(expected)}, got ${show(actual)}`];
    return expected.flatMap((w, i) => match(w, got[i], `${path}[${i}]`));
  }
  if (actual === undefined && isDefault(expected)) return [];
  if (typeof expected === "number" && typeof actual === "number") {
    return Math.abs(actual - expected) <= TOLERANCE * Math.max(1, Math.abs(expected)) ? [] : [`${path}: expected ${expected}, got ${actual}`];
  }
  return expected === actual ? [] : [`${path}: expected ${show(expected)}, got ${show(actual)}`];
}

function matchOperators(ops: { [key: string]: Json }, actual: Json | undefined, path: string): string[] {
  const problems: string[] = [];
  const items = Array.isArray(actual) ? actual : [];
  for (const [op, arg] of Object.entries(ops)) {
    if (op === "$absent") {
      if (arg === true && !isDefault(actual)) problems.push(`${path}: expected absent, got ${show(actual)}`);
    } else if (op === "$len") {
      if ((actual !== undefined && actual !== null && !Array.isArray(actual)) || items.length !== arg) {
        problems.push(`${path}: expected ${arg} elements, got ${items.length}`);
      }
    } else if (op === "$regex") {
      const text = actual === undefined || actual === null ? "" : actual;
      if (typeof text !== "string" || !new RegExp(arg as string).test(text)) {
        problems.push(`${path}: ${show(actual)} does not match /${arg}/`);
      }
    } else if (op === "$contains") {
      (arg as Json[]).forEach((want, i) => {
        if (!items.some((item) => match(want, item).length === 0)) {
          problems.push(`${path}: no element matches $contains[${i}] ${show(want)}`);
        }
      });
    } else {
      problems.push(`${path}: unknown operator ${op}`);
    }
  }
  return problems;
}
