"""A table's link (/t/<token>/, scoring.table_views) as printed, shown and sent: the
address and its QR code. The evening page, the notices and the tournament's pages and
printouts all build it here.

A page builds the address from its request (as the invitation page does); a printout, which
a worker may build with no request, from the site's own domain (club.mail.site_url). The QR
code of a page is inline SVG (the Content-Security-Policy allows it); a printout's is an
SVG image in a data: URL, the only kind of URL WeasyPrint may read here
(competition.tournament.printouts._render).
"""

from __future__ import annotations

import segno
from django.http import HttpRequest
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from club.mail import site_url
from club.qr import ERROR, qr_svg_inline


def table_path(token: str) -> str:
    return reverse("scoring:table", args=[token])


def table_url(token: str, request: HttpRequest | None = None) -> str:
    """The table's link in full: on the request's host, else on the site's own domain."""
    if request is not None:
        return request.build_absolute_uri(table_path(token))
    return site_url(table_path(token))


def table_qr_inline(url: str, number: int) -> SafeString:
    """The link's QR code as an <svg> element for a page."""
    title = _("The link of table %(table)s") % {"table": number}
    return mark_safe(qr_svg_inline(url, title=title))  # noqa: S308 (segno's own markup)


def table_qr_image(url: str) -> str:
    """The link's QR code as a data: URL of an SVG image, for a printout."""
    code = segno.make(url, error=ERROR, micro=False)
    return code.svg_data_uri(scale=4, border=4, dark="#000", light="#fff")
