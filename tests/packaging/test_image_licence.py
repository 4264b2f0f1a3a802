"""The image's OCI licenses label (Containerfile) is an SPDX expression true for what the image
installs into /opt/tavla: our MIT distributions and every package of requirements.lock (bgsage's
MPL-2.0 included), with the libraries numpy's wheel bundles, read from the installed packages'
metadata (this test environment installs the same lock)."""

from __future__ import annotations

import importlib.metadata as md
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# licence metadata that is not an SPDX expression, as the package's classifiers and files say
NOT_SPDX = {"3-Clause BSD License": "BSD-3-Clause", "MIT License": "MIT"}
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9.+-]*")


def label() -> str:
    found = re.search(r'org\.opencontainers\.image\.licenses="([^"]*)"', (ROOT / "Containerfile").read_text())
    assert found, "no licenses label"
    return found.group(1)


def ids(expression: str) -> set[str]:
    """The licence identifiers (and WITH exceptions) of an SPDX expression."""
    return {t for t in _ID.findall(expression) if t not in ("AND", "OR", "WITH")}


def licence_of(dist: md.Distribution) -> str:
    meta = dist.metadata
    text = meta.get("License-Expression") or meta.get("License") or ""
    if text in NOT_SPDX:
        return NOT_SPDX[text]
    if "\n" in text or not text:  # the whole licence text: read the classifier
        classifiers = [c for c in meta.get_all("Classifier") or [] if c.startswith("License ::")]
        assert classifiers == ["License :: OSI Approved :: MIT License"], (dist.name, classifiers)
        return "MIT"
    return text


def test_the_label_is_an_spdx_expression_of_every_installed_licence():
    expression = label()
    assert re.fullmatch(r"[A-Za-z0-9.+-]+( (AND|OR|WITH) [A-Za-z0-9.+-]+)*", expression), expression
    have = ids(expression)
    assert {"MIT", "MPL-2.0"} <= have  # ours; bgsage and its weights (docs/analysis.md)
    lock = (ROOT / "requirements.lock").read_text()
    names = dict.fromkeys(re.findall(r"^([A-Za-z0-9_.-]+)==", lock, re.MULTILINE))
    checked = []
    for name in names:
        try:
            dist = md.distribution(name)
        except md.PackageNotFoundError:  # a marker leaves it out here (Python < 3.11), and so in the image
            continue
        expression_of = licence_of(dist)
        if "OR" in expression_of.split():  # a choice: one of them is enough
            assert ids(expression_of) & have, (name, expression_of)
        else:
            assert ids(expression_of) <= have, (name, expression_of, ids(expression_of) - have)
        checked.append(name)
    assert "bgsage" in checked and "grpcio" in checked and len(checked) >= 20
    # the shared libraries numpy's wheel bundles (numpy.libs), each with its licence
    numpy_licence = next(f for f in md.distribution("numpy").files or () if str(f).endswith("licenses/LICENSE.txt"))
    bundled = re.findall(r"^License: (.+)$", numpy_licence.read_text(), re.MULTILINE)
    assert bundled and ids(" AND ".join(bundled)) <= have, bundled
    for name in ("tavla-engine", "tavla-rules", "tavla-engine-client"):
        assert licence_of(md.distribution(name)) == "MIT"
