"""Every relative link of README.md and docs/*.md resolves: the target file exists, and a
``#anchor`` names a heading of the target (GitHub's heading slugs) or an explicit ``id``/``name``.

Links to the web (``http:``, ``https:``, ``mailto:``) are not followed; links inside code blocks
and inline code are not links.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s*(\S+)", re.MULTILINE)
FENCE = re.compile(r"^([ \t]*)(```|~~~).*?^\1\2[ \t]*$", re.MULTILINE | re.DOTALL)
INLINE_CODE = re.compile(r"(`+).+?\1", re.DOTALL)
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
HTML_ID = re.compile(r"""<[^>]+\b(?:id|name)=["']([^"']+)["']""")


def _prose(text: str) -> str:
    """``text`` without fenced blocks and inline code, which hold no links."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: markup and punctuation dropped, lower case, spaces to '-'."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file: one per heading (repeats numbered -1, -2, ...) and ids."""
    text = FENCE.sub("", path.read_text())
    seen: dict[str, int] = {}
    out: set[str] = set(HTML_ID.findall(text))
    for heading in HEADING.findall(text):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def links(path: Path) -> list[str]:
    prose = _prose(path.read_text())
    return LINK.findall(prose) + REFERENCE.findall(prose)


def broken(path: Path) -> list[str]:
    out = []
    for target in links(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        file_part, _, anchor = target.partition("#")
        where = (path.parent / unquote(file_part)).resolve() if file_part else path
        if not where.exists():
            out.append(f"{target}: no such file")
            continue
        if anchor and where.suffix == ".md" and unquote(anchor) not in anchors(where):
            out.append(f"{target}: no heading #{anchor} in {where.relative_to(ROOT)}")
    return out


def test_the_slugs_are_githubs():
    assert slug("Try it with `grpcurl`") == "try-it-with-grpcurl"
    assert slug("ListLegalSteps: checker by checker (R4-R14; seeds 001 and 004)") == \
        "listlegalsteps-checker-by-checker-r4-r14-seeds-001-and-004"
    assert slug("The last 8% (from 9.4x to 10.3x gnubg)") == "the-last-8-from-94x-to-103x-gnubg"


def test_the_pages_have_links():
    assert len(PAGES) > 10
    assert sum(len(links(p)) for p in PAGES) > 100


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page):
    assert broken(page) == []
