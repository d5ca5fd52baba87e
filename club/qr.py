"""QR codes of invitation links, drawn by segno as SVG.

The page embeds the SVG as markup (inline SVG is allowed by the Content-Security-Policy)
and offers it as a file to print. segno draws with presentation attributes (stroke, fill)
and no style attribute, which the CSP's style-src would block.
"""

from __future__ import annotations

import io

import segno

# Error correction M (15% of the code may be lost): a printed code survives a fold or a
# smudge, and the link (about 80 characters) still makes a small code (version 5 or 6).
ERROR = "m"


def qr_svg_inline(text: str, *, title: str) -> str:
    """The QR code of `text` as an <svg> element to put in a page; its size comes from CSS."""
    code = segno.make(text, error=ERROR, micro=False)
    return code.svg_inline(
        scale=4,
        border=4,
        omitsize=True,
        svgclass="qr",
        lineclass="qr-line",
        title=title,
        dark="#000",
        light="#fff",
    )


def qr_svg_document(text: str, *, title: str) -> bytes:
    """The QR code of `text` as an SVG file (with its XML declaration), 8 pixels a module."""
    buffer = io.BytesIO()
    code = segno.make(text, error=ERROR, micro=False)
    code.save(buffer, kind="svg", scale=8, border=4, title=title, dark="#000", light="#fff")
    return buffer.getvalue()
