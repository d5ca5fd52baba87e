"""Reading QR codes back, as a phone's camera would: a PDF's pages are rendered (pdfium)
and zbarimg (Debian's zbar-tools) finds every code on them."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pypdfium2

from tests.conftest import missing_service


def zbarimg() -> str:
    """The decoder's path; skipped without it on a laptop, a failure under CI=true (the
    Makefile installs it there)."""
    found = shutil.which("zbarimg")
    if found is None:
        missing_service("zbarimg is not installed (apt-get install zbar-tools)")
    return found


def codes_in_pdf(content: bytes, *, scale: float = 3.0) -> list[list[str]]:
    """The texts of the QR codes on each page of the PDF, in the order zbar finds them."""
    decoder = zbarimg()
    pages = []
    document = pypdfium2.PdfDocument(content)
    with tempfile.TemporaryDirectory() as folder:
        for index in range(len(document)):
            image = document[index].render(scale=scale).to_pil()
            path = Path(folder) / f"page-{index}.png"
            image.save(path)
            found = subprocess.run(
                [decoder, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(path)],
                capture_output=True,
                text=True,
                timeout=60,
            )
            # zbarimg exits 4 when a page has no code at all.
            assert found.returncode in (0, 4), found.stderr
            pages.append([line for line in found.stdout.splitlines() if line])
    return pages
