// The live server of the tests: TAVLA_TARGET when set, else one started through
// clients/conformance/live_server.py (TAVLA_SERVER_PYTHON, else the Makefile's .venv-test python).
// Closing the script's stdin stops the server with SIGTERM.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

// dist/test/ -> clients/typescript -> repository root
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");

export interface LiveServer {
  target: string;
  stop(): Promise<void>;
}

/** Start (or, with TAVLA_TARGET, reuse) a server; `env` is added to the server's environment. */
export async function startLiveServer(env: Record<string, string> = {}): Promise<LiveServer> {
  if (process.env.TAVLA_TARGET) {
    return { target: process.env.TAVLA_TARGET, stop: async () => {} };
  }
  const python = process.env.TAVLA_SERVER_PYTHON ?? join(repoRoot, ".venv-test", "bin", "python");
  const child: ChildProcess = spawn(python, [join(repoRoot, "clients", "conformance", "live_server.py")], {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  const lines = createInterface({ input: child.stdout! });
  const [first] = (await Promise.race([
    once(lines, "line"),
    once(child, "exit").then(([code]) => {
      throw new Error(`live_server.py exited with ${code} (run \`make .venv-test/.installed\` or set TAVLA_SERVER_PYTHON)`);
    }),
    once(child, "error").then(([err]) => {
      throw new Error(`cannot run ${python}: ${err}`);
    }),
  ])) as [string];
  if (!first.startsWith("READY ")) throw new Error(`unexpected line from live_server.py: ${first}`);
  return {
    target: first.slice("READY ".length).trim(),
    async stop() {
      lines.close();
      const exited = once(child, "exit");
      child.stdin!.end();
      await exited;
    },
  };
}
