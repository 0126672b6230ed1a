"""axe-core, Deque's accessibility engine, run in a page of a browser test.

The engine comes from the npm registry (``npm pack``) as the published tarball of one pinned
version, checked against the registry's sha512 integrity before anything of it runs, and cached
under ``var/cache/`` (ignored by git) so that a clone fetches it once. CI reaches the package
registries and has Node.js's npm, so a fresh clone needs nothing installed by hand.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE_VERSION = "4.14.1"
# The registry's `dist.integrity` for that version (`npm view axe-core@4.14.1 dist.integrity`).
AXE_INTEGRITY = (
    "sha512-"
    "FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
)
AXE_SCRIPT = "package/axe.min.js"
CACHE_DIR = Path(__file__).resolve().parents[2] / "var" / "cache"
DOWNLOAD_TIMEOUT_S = 60

# WCAG 2.1 A and AA, and axe's best practices (landmarks, headings, skip links among them).
AXE_OPTIONS = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
    },
    "resultTypes": ["violations"],
}
SERIOUS = ("serious", "critical")


@dataclass(frozen=True)
class Violation:
    """One rule axe found broken on a page, with the elements that break it."""

    rule: str
    impact: str
    help: str
    targets: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.rule} ({self.impact}: {self.help}) at {', '.join(self.targets)}"


@cache
def axe_source() -> str:
    """The engine's script, from the cached tarball (downloaded on first use), verified."""
    tarball = CACHE_DIR / f"axe-core-{AXE_VERSION}.tgz"
    if not tarball.exists():
        _download(tarball)
    data = tarball.read_bytes()
    _verify(data)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        member = archive.extractfile(AXE_SCRIPT)
        assert member is not None, AXE_SCRIPT
        return member.read().decode("utf-8")


def _download(tarball: Path) -> None:
    """``npm pack``, the registry's own client, fetches the published tarball; it lands in
    the cache only once its digest is the pinned one."""
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(
            [
                "npm",
                "pack",
                f"axe-core@{AXE_VERSION}",
                "--pack-destination",
                folder,
                "--ignore-scripts",
                "--silent",
            ],
            check=True,
            capture_output=True,
            timeout=DOWNLOAD_TIMEOUT_S,
        )
        data = (Path(folder) / tarball.name).read_bytes()
    _verify(data)
    tarball.parent.mkdir(parents=True, exist_ok=True)
    partial = tarball.with_suffix(f".{os.getpid()}.part")
    partial.write_bytes(data)
    partial.replace(tarball)  # atomic: a parallel worker reads a whole file or none


def _verify(data: bytes) -> None:
    algorithm, _, expected = AXE_INTEGRITY.partition("-")
    actual = base64.b64encode(hashlib.new(algorithm, data).digest()).decode()
    if actual != expected:
        raise AssertionError(f"axe-core {AXE_VERSION}: integrity {actual} is not {expected}")


def axe_violations(page: Page) -> list[Violation]:
    """Every violation axe finds in the page as it stands.

    The script goes in as an inline ``<script>``, which our content security policy refuses:
    the page's context must have been opened with ``bypass_csp=True``.
    """
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_source())
    results: dict[str, Any] = page.evaluate("(options) => axe.run(document, options)", AXE_OPTIONS)
    return [
        Violation(
            rule=found["id"],
            impact=found["impact"] or "minor",
            help=found["help"],
            targets=tuple(" ".join(map(str, node["target"])) for node in found["nodes"]),
        )
        for found in results["violations"]
    ]
