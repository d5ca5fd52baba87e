"""The page that explains the rating, for everyone, club or not: a worked example and a
margin calculator (competition.rating.explain)."""

from __future__ import annotations

from django import forms
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from club.params import IntegerField
from club.rendering import render_page
from competition.rating import explain


class MarginForm(forms.Form):
    """The margin calculator of the ratings page: net whists won from each opponent."""

    whists = IntegerField(
        label=_("Whists won from each opponent"),
        min_value=-5000,
        max_value=5000,
        initial=150,
        help_text=_("Negative: whists lost."),
    )


@require_safe
def ratings_help(request: HttpRequest) -> HttpResponse:
    """How ratings work, with a worked example and a margin calculator (htmx: the result)."""
    form = MarginForm(request.GET if "whists" in request.GET else None)
    if form.is_bound:
        effect = explain.margin_effect(form.cleaned_data["whists"]) if form.is_valid() else None
    else:
        effect = explain.margin_effect(MarginForm.base_fields["whists"].initial)
    context = {"example": explain.rating_example(), "form": form, "effect": effect}
    return render_page(request, "competition/ratings_help.html", context, fragment="calculator")
