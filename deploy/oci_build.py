#!/usr/bin/env python3
"""Build an OCI image from a Containerfile with chroot and umoci: no container engine.

deploy/build-image.sh runs this as root. It reads the same Containerfile that ``docker build``
and ``podman build`` read and carries out the instructions that file uses, so the image it makes
is the one those engines make (same commands, same files, same configuration), except that the
final stage becomes one layer on top of the base instead of one per instruction:

- ``ARG`` (global and per stage), ``FROM <base> [AS name]``: every stage starts from the base
  given with ``--base`` (an OCI layout and tag, e.g. made by umoci from an mmdebstrap tarball); the
  ``FROM`` line must name that base through the build argument ``--base-arg`` (PYTHON_BASE).
- ``RUN``: ``/bin/sh -c`` in a chroot of the stage's root filesystem, with /proc, /dev and the
  host's /etc/resolv.conf mounted, the stage's ENV and ARG values as its environment, in WORKDIR,
  as USER; ``--mount=type=secret,id=ID`` binds the ``--secret id=ID,src=FILE`` at
  /run/secrets/ID for that command only (never stored); ``--mount=type=cache,target=DIR`` binds
  a directory kept under ``--cache-mounts`` between builds (cargo's target directory: a rebuild
  with unchanged crate sources compiles nothing), as BuildKit and buildah keep theirs.
- ``COPY [--from=stage] src... dest``: from the build context filtered by .dockerignore, or from
  an earlier stage's root filesystem; owned by root, as Docker does without --chown.
- ``WORKDIR``, ``ENV``, ``LABEL``, ``USER``, ``EXPOSE``, ``ENTRYPOINT``, ``CMD`` (JSON form).

Anything else is an error naming the instruction, so a Containerfile change this does not carry
out fails the build instead of giving a different image. The result is written as ``--tag`` into
the OCI layout given with ``--base``.

  deploy/oci_build.py --containerfile Containerfile --context . --base LAYOUT:TAG \
      --base-arg PYTHON_BASE --tag TAG --work DIR --log FILE --cache-mounts DIR [--build-arg K=V]... [--secret id=ID,src=FILE]
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

SUPPORTED = {"ARG", "FROM", "RUN", "COPY", "WORKDIR", "ENV", "LABEL", "USER", "EXPOSE", "ENTRYPOINT", "CMD"}


@dataclass
class Instruction:
    """One Containerfile instruction: ``keyword`` upper-case, ``args`` the rest of its line(s)."""

    keyword: str
    args: str
    line: int


def parse(text: str) -> list[Instruction]:
    """The instructions of a Containerfile: continuation lines joined, comments dropped."""
    instructions: list[Instruction] = []
    pending: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if stripped.startswith("#") or (not stripped and not pending):
            continue  # a comment (also inside a continued instruction, as Docker reads it)
        if not pending:
            start = number
        if stripped.endswith("\\"):
            pending.append(stripped[:-1])
            continue
        pending.append(stripped)
        joined = " ".join(part.strip() for part in pending if part.strip())
        pending = []
        keyword, _, args = joined.partition(" ")
        instructions.append(Instruction(keyword.upper(), args.strip(), start))
    if pending:
        raise SystemExit(f"Containerfile: line {start}: the file ends inside a continued instruction")
    return instructions


_VAR = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")


def expand(value: str, variables: dict[str, str]) -> str:
    """``$NAME`` and ``${NAME}`` replaced from ``variables`` (empty when unset), as Docker does."""
    return _VAR.sub(lambda m: variables.get(m.group(1) or m.group(2), ""), value)


def pairs(args: str, variables: dict[str, str]) -> list[tuple[str, str]]:
    """``K=V K2="V 2"`` (ENV, LABEL) as expanded pairs; the old ``ENV K V`` form too."""
    words = shlex.split(args)
    if words and "=" not in words[0]:
        return [(words[0], expand(" ".join(words[1:]), variables))]
    out = []
    for word in words:
        key, sep, value = word.partition("=")
        if not sep:
            raise SystemExit(f"Containerfile: {word!r} is not KEY=VALUE")
        out.append((key, expand(value, variables)))
    return out


def json_form(args: str, where: Instruction) -> list[str]:
    """The exec (JSON array) form of ENTRYPOINT and CMD; the shell form is refused."""
    try:
        value = json.loads(args)
    except json.JSONDecodeError:
        value = None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SystemExit(f"Containerfile: line {where.line}: {where.keyword} must be a JSON array")
    return value


class Ignore:
    """.dockerignore matching (patterns from the context root, ``**``, ``!`` exceptions; the
    last matching pattern decides)."""

    def __init__(self, context: Path) -> None:
        self.rules: list[tuple[bool, re.Pattern[str]]] = []
        path = context / ".dockerignore"
        for raw in path.read_text().splitlines() if path.exists() else []:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            negate = line.startswith("!")
            pattern = os.path.normpath(line.lstrip("!").strip()).lstrip("/")
            self.rules.append((negate, re.compile(self._regex(pattern))))

    @staticmethod
    def _regex(pattern: str) -> str:
        out, i = "", 0
        while i < len(pattern):
            if pattern.startswith("**/", i):
                out, i = out + "(?:.*/)?", i + 3
            elif pattern.startswith("**", i):
                out, i = out + ".*", i + 2
            elif pattern[i] == "*":
                out, i = out + "[^/]*", i + 1
            elif pattern[i] == "?":
                out, i = out + "[^/]", i + 1
            else:
                out, i = out + re.escape(pattern[i]), i + 1
        return "(?s:" + out + ")(?:/.*)?\\Z"  # a matched directory takes its contents along

    def ignored(self, relative: str) -> bool:
        result = False
        for negate, regex in self.rules:
            if regex.match(relative):
                result = not negate
        return result


def copy_context(context: Path, ignore: Ignore, source: str, dest: Path) -> int:
    """Copy ``source`` (relative to the context) to ``dest``, skipping ignored paths; a
    directory's contents go into ``dest``. Returns the number of files copied."""
    root = (context / source).resolve()
    if not str(root).startswith(str(context.resolve())):
        raise SystemExit(f"COPY {source}: outside the build context")
    count = 0

    def rel(path: Path) -> str:
        return os.path.relpath(path, context)

    if root.is_file():
        if ignore.ignored(rel(root)):
            raise SystemExit(f"COPY {source}: excluded by .dockerignore")
        target = dest / root.name if dest.is_dir() else dest
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root, target)
        os.chown(target, 0, 0)
        return 1
    for directory, dirs, files in os.walk(root):
        here = Path(directory)
        dirs[:] = sorted(d for d in dirs if not ignore.ignored(rel(here / d)))
        out_dir = dest / here.relative_to(root)
        out_dir.mkdir(parents=True, exist_ok=True)
        for name in sorted(files):
            if ignore.ignored(rel(here / name)):
                continue
            shutil.copy2(here / name, out_dir / name, follow_symlinks=False)
            os.lchown(out_dir / name, 0, 0)
            count += 1
    if count == 0:
        raise SystemExit(f"COPY {source}: nothing to copy (excluded by .dockerignore?)")
    return count


def copy_tree(source: Path, dest: Path) -> None:
    """Copy a path of an earlier stage (``COPY --from``), contents of a directory into ``dest``."""
    if source.is_dir():
        subprocess.run(["cp", "-a", "--no-preserve=ownership", f"{source}/.", str(dest)], check=True)
        subprocess.run(["chown", "-R", "-h", "0:0", str(dest)], check=True)
    else:
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, dest)
        os.chown(dest, 0, 0)


@dataclass
class Stage:
    """The state of one stage while it is built."""

    name: str
    rootfs: Path
    env: dict[str, str]
    args: dict[str, str] = field(default_factory=dict)
    workdir: str = "/"
    user: str = ""
    labels: dict[str, str] = field(default_factory=dict)
    exposed: list[str] = field(default_factory=list)
    entrypoint: list[str] | None = None
    cmd: list[str] | None = None

    def variables(self) -> dict[str, str]:
        return {**self.args, **self.env}

    def path(self, inside: str) -> Path:
        inside = inside if inside.startswith("/") else os.path.join(self.workdir, inside)
        return self.rootfs / os.path.normpath(inside).lstrip("/")


class Mounts:
    """Bind mounts for one RUN, undone in reverse order even when the command fails."""

    def __init__(self, rootfs: Path) -> None:
        self.rootfs = rootfs
        self.mounted: list[Path] = []
        self.created: list[Path] = []

    def bind(self, source: str, inside: str, *, kind: str = "bind") -> None:
        target = self.rootfs / inside.lstrip("/")
        if not target.exists() and not target.is_symlink():
            if Path(source).is_dir() or kind != "bind":
                target.mkdir(parents=True)
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.touch()
            self.created.append(target)
        elif target.is_symlink():  # e.g. /etc/resolv.conf -> ../run/...: mount over a file of ours
            target.unlink()
            target.touch()
            self.created.append(target)
        if kind == "proc":
            subprocess.run(["mount", "-t", "proc", "proc", str(target)], check=True)
        else:
            subprocess.run(["mount", "--rbind" if Path(source).is_dir() else "--bind", source, str(target)], check=True)
            if Path(source).is_dir():
                subprocess.run(["mount", "--make-rslave", str(target)], check=True)
        self.mounted.append(target)

    def __enter__(self) -> Mounts:
        return self

    def __exit__(self, *exc: object) -> None:
        for target in reversed(self.mounted):
            subprocess.run(["umount", "-R", "-l", str(target)], check=False)
        for target in reversed(self.created):
            if target.is_dir():
                try:
                    target.rmdir()
                except OSError:
                    pass
            elif target.exists():
                target.unlink()


def run(stage: Stage, args: str, secrets: dict[str, str], where: Instruction, log: Path,
        cache_mounts: Path) -> None:
    """``RUN [--mount=type=secret,id=ID] command``: ``/bin/sh -c command`` in the stage's chroot,
    its output appended to ``log``."""
    mounts = []
    while args.startswith("--"):
        flag, _, args = args.partition(" ")
        args = args.strip()
        if not flag.startswith("--mount="):
            raise SystemExit(f"Containerfile: line {where.line}: RUN {flag} is not supported here")
        options = dict(item.split("=", 1) for item in flag.removeprefix("--mount=").split(","))
        if options.get("type") not in ("secret", "cache"):
            raise SystemExit(f"Containerfile: line {where.line}: only RUN --mount=type=secret or type=cache")
        mounts.append(options)
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root"}
    env.update(stage.variables())
    command = ["chroot"]
    if stage.user and stage.user not in ("0", "root", "0:0"):
        command.append(f"--userspec={stage.user}")
    command += [str(stage.rootfs), "/usr/bin/env", "-i", *[f"{k}={v}" for k, v in env.items()],
                "/bin/sh", "-c", f"cd {shlex.quote(stage.workdir)} && {args}"]
    with Mounts(stage.rootfs) as m:
        m.bind("proc", "/proc", kind="proc")
        m.bind("/dev", "/dev")
        m.bind("/etc/resolv.conf", "/etc/resolv.conf")
        for options in mounts:
            if options["type"] == "cache":  # kept between builds, as BuildKit and buildah keep it
                kept = cache_mounts / re.sub(r"[^A-Za-z0-9_.-]", "_", options.get("id") or options["target"])
                kept.mkdir(parents=True, exist_ok=True)
                m.bind(str(kept), options["target"])
                continue
            ident = options.get("id") or options.get("target", "").rsplit("/", 1)[-1]
            target = options.get("target", f"/run/secrets/{ident}")
            if ident in secrets:  # Docker skips a secret it was not given (the RUN tests for the file)
                m.bind(secrets[ident], target)
        print(f"--> RUN (line {where.line}) {args[:100]}{'...' if len(args) > 100 else ''}", flush=True)
        returncode = logged(command, log)
    if returncode:
        with open(log, errors="replace") as f:
            tail = f.readlines()[-40:]
        sys.stdout.write("".join(tail))
        raise SystemExit(f"Containerfile: line {where.line}: RUN exited with status {returncode} (log: {log})")


def logged(command: list[str], log: Path, every: float = 15.0) -> int:
    """Run ``command`` with its output appended to ``log``; every ``every`` seconds print how
    long it has run and its last line (no silent minute), and at the end how long it took."""
    started = time.monotonic()
    with open(log, "ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        while True:
            try:
                process.wait(timeout=every)
                break
            except subprocess.TimeoutExpired:
                print(f"    ... {time.monotonic() - started:.0f} s: {last_line(log)}", flush=True)
    print(f"    done in {time.monotonic() - started:.0f} s", flush=True)
    return process.returncode


def last_line(log: Path) -> str:
    """The last non-empty line of ``log`` (its last 4 KiB), shortened to 100 characters."""
    with open(log, "rb") as f:
        f.seek(max(0, f.seek(0, os.SEEK_END) - 4096))
        lines = [line.strip() for line in f.read().decode(errors="replace").replace("\r", "\n").splitlines() if line.strip()]
    return lines[-1][:100] if lines else ""


def umoci(*args: str) -> None:
    subprocess.run(["umoci", *args], check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--containerfile", type=Path, required=True)
    parser.add_argument("--context", type=Path, required=True)
    parser.add_argument("--base", required=True, help="OCI layout and tag of the base: LAYOUT:TAG")
    parser.add_argument("--base-arg", required=True, help="the build argument FROM names the base by")
    parser.add_argument("--tag", required=True, help="tag of the result in the base's layout")
    parser.add_argument("--work", type=Path, required=True, help="scratch directory (removed first)")
    parser.add_argument("--build-arg", action="append", default=[], metavar="K=V")
    parser.add_argument("--secret", action="append", default=[], metavar="id=ID,src=FILE")
    parser.add_argument("--log", type=Path, required=True, help="RUN output goes here (rewritten)")
    parser.add_argument("--cache-mounts", type=Path, required=True,
                        help="where RUN --mount=type=cache directories are kept between builds")
    opts = parser.parse_args()
    if os.geteuid() != 0:
        raise SystemExit("oci_build: needs root (chroot, mount)")

    layout, _, base_tag = opts.base.rpartition(":")
    build_args = dict(item.split("=", 1) for item in opts.build_arg)
    secrets = {}
    for item in opts.secret:
        options = dict(part.split("=", 1) for part in item.split(","))
        secrets[options["id"]] = options["src"]
    context = opts.context.resolve()
    ignore = Ignore(context)
    work = opts.work.resolve()
    if work.exists():
        subprocess.run(["rm", "-rf", "--one-file-system", str(work)], check=True)
    work.mkdir(parents=True)
    opts.log.write_bytes(b"")
    base_config = json.loads(
        subprocess.run(["skopeo", "inspect", "--config", f"oci:{layout}:{base_tag}"], check=True,
                       capture_output=True, text=True).stdout)["config"]
    base_env = dict(item.split("=", 1) for item in base_config.get("Env", []))

    instructions = parse(opts.containerfile.read_text())
    unknown = [i for i in instructions if i.keyword not in SUPPORTED]
    if unknown:
        raise SystemExit(f"Containerfile: line {unknown[0].line}: {unknown[0].keyword} is not supported by oci_build")
    from_lines = [n for n, i in enumerate(instructions) if i.keyword == "FROM"]
    global_args: dict[str, str] = {}
    for ins in instructions[: from_lines[0]]:
        if ins.keyword != "ARG":
            raise SystemExit(f"Containerfile: line {ins.line}: only ARG may come before FROM")
        name, _, default = ins.args.partition("=")
        global_args[name] = build_args.get(name, default)

    stages: dict[str, Stage] = {}
    bundle = work / "final-bundle"
    for index, start in enumerate(from_lines):
        end = from_lines[index + 1] if index + 1 < len(from_lines) else len(instructions)
        last = index == len(from_lines) - 1
        words = instructions[start].args.split()
        if words[0] not in (f"${{{opts.base_arg}}}", f"${opts.base_arg}"):
            raise SystemExit(f"Containerfile: line {instructions[start].line}: FROM must be ${{{opts.base_arg}}}")
        name = words[2] if len(words) == 3 and words[1].upper() == "AS" else str(index)
        print(f"== stage {name}: FROM {global_args.get(opts.base_arg, '')}", flush=True)
        if last:  # the final stage: umoci's unpacked base, repacked as one new layer afterwards
            umoci("unpack", "--image", f"{layout}:{base_tag}", str(bundle))
            rootfs = bundle / "rootfs"
        else:
            rootfs = work / f"stage-{name}"
            umoci("unpack", "--image", f"{layout}:{base_tag}", str(work / f"bundle-{name}"))
            (work / f"bundle-{name}" / "rootfs").rename(rootfs)
        stage = Stage(name, rootfs, dict(base_env), workdir=base_config.get("WorkingDir") or "/")
        for ins in instructions[start + 1 : end]:
            variables = stage.variables()
            if ins.keyword == "ARG":
                arg, _, default = ins.args.partition("=")
                stage.args[arg] = build_args.get(arg, global_args.get(arg, expand(default, variables)))
            elif ins.keyword == "ENV":
                stage.env.update(pairs(ins.args, variables))
            elif ins.keyword == "LABEL":
                stage.labels.update(pairs(ins.args, variables))
            elif ins.keyword == "WORKDIR":
                stage.workdir = os.path.normpath(os.path.join(stage.workdir, expand(ins.args, variables)))
                stage.path(stage.workdir).mkdir(parents=True, exist_ok=True)
            elif ins.keyword == "RUN":
                run(stage, ins.args, secrets, ins, opts.log, opts.cache_mounts)
            elif ins.keyword == "COPY":
                words = [expand(w, variables) for w in shlex.split(ins.args)]
                source_stage = None
                while words and words[0].startswith("--"):
                    flag = words.pop(0)
                    if flag.startswith("--from="):
                        source_stage = stages[flag.removeprefix("--from=")]
                    else:
                        raise SystemExit(f"Containerfile: line {ins.line}: COPY {flag} is not supported")
                *sources, dest_name = words
                dest = stage.path(dest_name)
                if dest_name.endswith("/") or len(sources) > 1:
                    dest.mkdir(parents=True, exist_ok=True)
                for source in sources:
                    if source_stage is not None:
                        src = source_stage.path(source)
                        if src.is_dir():
                            dest.mkdir(parents=True, exist_ok=True)
                        copy_tree(src, dest if src.is_dir() or not dest.is_dir() else dest / src.name)
                    else:
                        if (context / source).is_dir():
                            dest.mkdir(parents=True, exist_ok=True)
                        copy_context(context, ignore, source, dest)
                print(f"--> COPY (line {ins.line}) {' '.join(sources)} -> {dest_name}", flush=True)
            elif ins.keyword == "USER":
                stage.user = expand(ins.args, variables)
            elif ins.keyword == "EXPOSE":
                stage.exposed += [p if "/" in p else f"{p}/tcp" for p in expand(ins.args, variables).split()]
            elif ins.keyword == "ENTRYPOINT":
                stage.entrypoint = json_form(ins.args, ins)
                stage.cmd = None  # Docker: a stage's ENTRYPOINT resets the CMD it inherited
            elif ins.keyword == "CMD":
                stage.cmd = json_form(ins.args, ins)
            else:  # pragma: no cover - FROM is handled above
                raise SystemExit(f"Containerfile: line {ins.line}: unexpected {ins.keyword}")
        stages[name] = stage
        stages[str(index)] = stage

    final = stage
    print(f"== layer: umoci repack {opts.tag}", flush=True)
    umoci("repack", "--image", f"{layout}:{opts.tag}", str(bundle))
    config = ["--image", f"{layout}:{opts.tag}", "--clear=config.env", "--clear=config.labels",
              "--clear=config.entrypoint", "--clear=config.cmd", "--clear=config.exposedports"]
    for key, value in final.env.items():
        config.append(f"--config.env={key}={value}")
    for key, value in final.labels.items():
        config.append(f"--config.label={key}={value}")
    for port in final.exposed:
        config.append(f"--config.exposedports={port}")
    for word in final.entrypoint or []:
        config.append(f"--config.entrypoint={word}")
    for word in final.cmd or []:
        config.append(f"--config.cmd={word}")
    if final.user:
        config.append(f"--config.user={final.user}")
    config.append(f"--config.workingdir={final.workdir}")
    umoci("config", *config, "--history.created_by=deploy/oci_build.py (Containerfile's final stage)")
    subprocess.run(["rm", "-rf", "--one-file-system", str(work)], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
